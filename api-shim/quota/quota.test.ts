// The embedded quota store: daily counting, exactness, persistence across restarts (hashed keys only), its log
// written every flushMs, and the lock that makes it its state folder's only owner.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../../core/log.ts";
import { keyedHash } from "../keys/secret.ts";
import { openEmbeddedQuotaStore } from "./quota.ts";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "quota-"));
  file = path.join(dir, "state", "quotas.jsonl");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const at = (iso: string) => new Date(iso);

describe("embedded quota store", () => {
  it("counts per key and day, with the next midnight UTC as reset", async () => {
    const store = await openEmbeddedQuotaStore();
    expect(store.hit("ip:a", 2, at("2026-03-02T10:00:00Z"))).toEqual({
      limit: 2,
      count: 1,
      remaining: 1,
      resetAt: at("2026-03-03T00:00:00Z"),
    });
    expect(store.hit("ip:a", 2, at("2026-03-02T23:59:59.999Z"))).toMatchObject({ count: 2, remaining: 0 });
    expect(store.hit("ip:a", 2, at("2026-03-02T23:59:59.999Z"))).toMatchObject({ count: 3, remaining: 0 });
    expect(store.hit("ip:b", 2, at("2026-03-02T12:00:00Z"))).toMatchObject({ count: 1, remaining: 1 });
    // midnight UTC starts a new day
    expect(store.hit("ip:a", 2, at("2026-03-03T00:00:00Z"))).toEqual({
      limit: 2,
      count: 1,
      remaining: 1,
      resetAt: at("2026-03-04T00:00:00Z"),
    });
    // a request stamped before the current day still counts against it
    expect(store.hit("ip:a", 2, at("2026-03-02T23:59:59Z"))).toMatchObject({ count: 2 });
    await store.close();
  });

  it("is exact under concurrent hits", async () => {
    const store = await openEmbeddedQuotaStore();
    const now = at("2026-03-02T10:00:00Z");
    const hits = await Promise.all(Array.from({ length: 1000 }, async () => store.hit("ip:a", 100, now)));
    expect(hits.filter((h) => h.count <= h.limit)).toHaveLength(100);
    expect(new Set(hits.map((h) => h.count)).size).toBe(1000);
  });

  it("survives a restart through its log, holding only HMACs of the keys", async () => {
    const first = await openEmbeddedQuotaStore({ file, secret: SECRET });
    for (let i = 0; i < 3; i++) first.hit("ip:203.0.113.9", 10, at("2026-03-02T10:00:00Z"));
    await first.close();
    expect(await readFile(file, "utf8")).toBe(
      `${JSON.stringify({ day: "2026-03-02", counts: { [hashed("ip:203.0.113.9")]: 3 } })}\n`,
    );
    const second = await openEmbeddedQuotaStore({ file, secret: SECRET });
    expect(second.hit("ip:203.0.113.9", 10, at("2026-03-02T11:00:00Z"))).toMatchObject({
      count: 4,
      remaining: 6,
    });
    expect(second.peek("ip:203.0.113.9", 10, at("2026-03-02T11:00:00Z"))).toMatchObject({
      count: 4,
      remaining: 6,
    });
    second.hit("ip:198.51.100.1", 10, at("2026-03-02T11:00:00Z"));
    await second.flush();
    second.hit("ip:198.51.100.1", 10, at("2026-03-02T11:00:01Z"));
    await second.flush();
    // the first flush after a start rewrites the log as one line; later ones append the counts that changed
    expect((await readFile(file, "utf8")).split("\n")).toEqual([
      JSON.stringify({
        day: "2026-03-02",
        counts: { [hashed("ip:203.0.113.9")]: 4, [hashed("ip:198.51.100.1")]: 1 },
      }),
      JSON.stringify({ day: "2026-03-02", counts: { [hashed("ip:198.51.100.1")]: 2 } }),
      "",
    ]);
    // yesterday's counts do not carry into today
    expect(second.hit("ip:203.0.113.9", 10, at("2026-03-03T00:00:01Z"))).toMatchObject({ count: 1 });
    await second.close();
    expect(await readFile(file, "utf8")).toBe(
      `${JSON.stringify({ day: "2026-03-03", counts: { [hashed("ip:203.0.113.9")]: 1 } })}\n`,
    );
  });

  it("writes counters within flushMs without being asked", async () => {
    const store = await openEmbeddedQuotaStore({ file, secret: SECRET, flushMs: 10 });
    store.hit("ip:a", 10, at("2026-03-02T10:00:00Z"));
    await expect
      .poll(async () => readFile(file, "utf8").catch(() => ""), { timeout: 30_000 })
      .toContain(`"${hashed("ip:a")}":1`);
    await store.close();
  });

  it("skips unreadable lines (a line cut by a crash), with a warning", async () => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      `${JSON.stringify({ day: "2026-03-02", counts: { a: 2 } })}\n{"day":"2026-03-02","cou`,
    );
    const logger = memoryLogger();
    const store = await openEmbeddedQuotaStore({ file, logger });
    expect(store.hit("a", 10, at("2026-03-02T10:00:00Z"))).toMatchObject({ count: 3 });
    expect(logger.lines).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "quota file has unreadable lines; they are skipped",
        file,
        lines: 1,
      }),
    ]);
    await store.close();
  });

  it("owns its state folder: a second store on it is refused until the first closes", async () => {
    const lockFile = path.join(dir, "quotas.lock");
    const first = await openEmbeddedQuotaStore({ file, lockFile });
    await expect(openEmbeddedQuotaStore({ file, lockFile })).rejects.toMatchObject({
      message: `The embedded quota store's state folder is already used by another process (pid ${process.pid}, lock ${lockFile}).`,
      hint: expect.stringContaining("PROJINTEL_QUOTA__STORE=redis"),
    });
    await first.close();
    const second = await openEmbeddedQuotaStore({ file, lockFile });
    await second.close();
  });

  it("takes over a lock whose process is gone (a kill -9 leaves no stale lock)", async () => {
    const lockFile = path.join(dir, "quotas.lock");
    // pid 2^22 + 1 is above Linux's pid_max limit, so no process can hold it
    await writeFile(lockFile, `${2 ** 22 + 1}\n`);
    const store = await openEmbeddedQuotaStore({ file, lockFile });
    expect(await readFile(lockFile, "utf8")).toBe(`${process.pid}\n`);
    await store.close();
    await expect(readFile(lockFile, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

const SECRET = "q".repeat(64);
const hashed = (key: string) => keyedHash(SECRET, `quota:${key}`);
