// The embedded quota store: daily counting, exactness, persistence across restarts.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../core/log.ts";
import { openEmbeddedQuotaStore } from "./quota.ts";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "quota-"));
  file = path.join(dir, "state", "quotas.json");
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

  it("survives a restart through its file", async () => {
    const first = await openEmbeddedQuotaStore({ file });
    for (let i = 0; i < 3; i++) first.hit("ip:a", 10, at("2026-03-02T10:00:00Z"));
    await first.close();
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      format: 1,
      day: "2026-03-02",
      counts: { "ip:a": 3 },
    });
    const second = await openEmbeddedQuotaStore({ file });
    expect(second.hit("ip:a", 10, at("2026-03-02T11:00:00Z"))).toMatchObject({ count: 4, remaining: 6 });
    // yesterday's counts do not carry into today
    expect(second.hit("ip:a", 10, at("2026-03-03T00:00:01Z"))).toMatchObject({ count: 1 });
    await second.close();
  });

  it("writes counters after the debounce without being asked", async () => {
    const store = await openEmbeddedQuotaStore({ file, debounceMs: 10 });
    store.hit("ip:a", 10, at("2026-03-02T10:00:00Z"));
    await expect
      .poll(async () => readFile(file, "utf8").catch(() => ""), { timeout: 2000 })
      .toContain('"ip:a":1');
    await store.close();
  });

  it("starts empty, with a warning, from an unreadable file", async () => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "{not json");
    const logger = memoryLogger();
    const store = await openEmbeddedQuotaStore({ file, logger });
    expect(store.hit("ip:a", 10, at("2026-03-02T10:00:00Z"))).toMatchObject({ count: 1 });
    expect(logger.lines).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "quota file is unreadable; starting with empty counters",
        file,
      }),
    ]);
  });
});
