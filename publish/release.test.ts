// publishRelease end to end on a temp folder: golden tree, exact pages, atomic pointer, gate, pruning.

import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Clock, fixedClock } from "../core/clock.ts";
import { loadConfig } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { memoryLogger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { CURRENT_KEY, readManifest, readPointer } from "./layout.ts";
import { type PublishOptions, type PublishReport, publishRelease } from "./release.ts";
import { FIXTURE_ROWS, fixtureDb, fixtureRecord, fixtureRow, loadQualityRows } from "./testing.ts";

const FIRST = "2026-03-01_20260302T031500Z";
const FIRST_CLOCK = "2026-03-02T03:15:00Z";
let root: string;
let storage: Storage;
let db: Db;

/**
 * Objects are not fsynced: what a power loss leaves is not what these tests can see, and syncing each of a release's
 * ~1,300 files took seconds per publish on a busy machine. The pointer is synced all the same.
 */
const folder = (dir: string) => createLocalStorage(dir, { syncObjects: false });

/**
 * The fixture's first release, published once: the tests that only read it read this folder, and those that start
 * from a live release work on a copy of it (`fromFirst`), instead of each publishing the same input again.
 */
const first = { dir: "", report: undefined as unknown as PublishReport, log: memoryLogger() };

beforeAll(async () => {
  first.dir = await mkdtemp(path.join(tmpdir(), "release-first-"));
  const firstDb = await fixtureDb();
  try {
    first.report = await publishRelease({
      db: firstDb,
      storage: folder(first.dir),
      config: loadConfig({ overrides: { stateDir: first.dir } }),
      clock: fixedClock(FIRST_CLOCK),
      logger: first.log,
    });
  } finally {
    firstDb.close();
  }
});
afterAll(async () => {
  if (first.dir) await rm(first.dir, { recursive: true, force: true });
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "release-"));
  storage = folder(root);
  db = await fixtureDb();
});
afterEach(async () => {
  db.close();
  await rm(root, { recursive: true, force: true });
});

/** This test's state folder as the first publish left it: the release FIRST live, as `publish()` would make it. */
const fromFirst = () => cp(first.dir, root, { recursive: true });

const config = (publish: Record<string, unknown> = {}) =>
  loadConfig({ overrides: { stateDir: root, publish } });
const publish = (options: Partial<PublishOptions> & { clock?: Clock } = {}) =>
  publishRelease({ db, storage, config: config(), clock: fixedClock(FIRST_CLOCK), ...options });

async function tree(dir: string): Promise<string[]> {
  const all = await createLocalStorage(dir).list("releases/");
  return all.map((key) => key.slice("releases/".length));
}

describe("publishRelease", () => {
  it("writes the golden release tree and flips the pointer to it", async () => {
    const report = first.report;
    const goldenFile = new URL("testdata/release-tree.txt", import.meta.url);
    // UPDATE_GOLDEN=1 rewrites the saved tree after a deliberate change of the release layout
    if (process.env.UPDATE_GOLDEN === "1")
      await writeFile(goldenFile, `${(await tree(first.dir)).join("\n")}\n`);
    const golden = (await readFile(goldenFile, "utf8")).trim().split("\n");
    expect(await tree(first.dir)).toEqual(golden);
    expect(await readPointer(folder(first.dir))).toEqual({
      format: 2,
      release_id: FIRST,
      run_date: "2026-03-01",
      created_at: "2026-03-02T03:15:00.000+00:00",
      manifest_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(report).toMatchObject({
      releaseId: FIRST,
      runDate: "2026-03-01",
      projects: 12,
      files: golden.length - 1, // the tree also holds the pointer
      pruned: [],
    });
    expect(report.collections.quality).toMatchObject({ mcp: 8, rag: 3, agents: 1, nlp: 0 });
    expect(Object.keys(report.collections.quality ?? {})).toHaveLength(30);
  });

  it("renders the canonical default page of a domain exactly", async () => {
    const storage = folder(first.dir);
    const page = await storage.get(`releases/${FIRST}/api/v1/quality/domain=mcp/offset=0.json`);
    const order = [
      "acme/alpha-server",
      "acme/beta-sdk",
      "bolt/gamma",
      "core/delta",
      "core/epsilon",
      "dyn/zeta",
    ];
    const byName = (name: string) => fixtureRecord(fixtureRow(name));
    expect(page?.toString()).toBe(
      JSON.stringify({
        data: [...order, "echo/eta", "echo/theta"].map(byName),
        meta: {
          timestamp: "2026-03-01T00:00:00.000+00:00",
          count: 8,
          total: 8,
          next_offset: null,
          query: { domain: "mcp", limit: 50, offset: 0 },
        },
      }),
    );
    const empty = await storage.get(`releases/${FIRST}/api/v1/quality/domain=nlp/offset=0.json`);
    expect(JSON.parse(empty?.toString() ?? "").data).toEqual([]);
  });

  it("lists every file with its size and sha256 in the manifest", async () => {
    const storage = folder(first.dir);
    const manifest = await readManifest(storage, FIRST);
    expect(manifest?.counts.projects).toBe(12);
    const golden = (await readFile(new URL("testdata/release-tree.txt", import.meta.url), "utf8")).trim();
    expect(manifest?.files).toHaveLength(golden.split("\n").length - 2); // all but the manifest and the pointer
    const records = manifest?.files.find((f) => f.path === "collections/quality/agents.json");
    const bytes = await storage.get(`releases/${FIRST}/collections/quality/agents.json`);
    expect(records).toEqual({
      path: "collections/quality/agents.json",
      bytes: bytes?.length,
      sha256: createHash("sha256")
        .update(bytes ?? "")
        .digest("hex"),
      content_type: "application/json; charset=utf-8",
    });
    expect(bytes?.toString()).toBe(JSON.stringify([fixtureRecord(fixtureRow("hive/mu"))]));
  });

  it("produces the same bytes for the same input", async () => {
    // another warehouse of the same rows, published into another folder, against the first publish
    await publish();
    const paths = await tree(first.dir);
    expect(await tree(root)).toEqual(paths);
    for (const p of paths) {
      expect(
        (await readFile(path.join(root, "releases", p))).equals(
          await readFile(path.join(first.dir, "releases", p)),
        ),
        p,
      ).toBe(true);
    }
  });

  it("leaves the previous release current when a write fails mid-render", async () => {
    await fromFirst();
    const failing: Storage = {
      ...storage,
      put: (key, body) =>
        key.endsWith("/collections/quality/rag.idx")
          ? Promise.reject(new Error("disk full"))
          : storage.put(key, body),
      // the same data again: unchanged files are copied from the live release, so the copy fails
      copy: (from, to) =>
        to.endsWith("/collections/quality/rag.idx")
          ? Promise.reject(new Error("disk full"))
          : storage.copy(from, to),
    };
    await expect(publish({ storage: failing, clock: fixedClock("2026-03-03T03:15:00Z") })).rejects.toThrow(
      "publish failed: disk full",
    );
    expect((await readPointer(storage))?.release_id).toBe(FIRST);
    // the failed release stays without a manifest, and the next publish of the night resumes it
    const failed = "2026-03-01_20260303T031500Z";
    expect(await storage.list("releases/", { children: true })).toEqual([
      `releases/${FIRST}/`,
      `releases/${failed}/`,
      CURRENT_KEY,
    ]);
    expect(await storage.exists(`releases/${failed}/manifest.json`)).toBe(false);
    const resumed = await publish({ clock: fixedClock("2026-03-04T03:15:00Z") });
    // uploaded: the failed rag.idx; the rest copied from the live release or, when the failed publish had stored
    // them already, kept (the one file naming the release id, the datasets' index, was stored before the collections)
    expect(resumed).toMatchObject({ releaseId: failed, transfer: { resumed: true, uploaded: 1 } });
    const { uploaded, copied, skipped } = resumed.transfer;
    expect(skipped).toBeGreaterThan(0);
    expect(uploaded + copied + skipped).toBe(resumed.files - 1); // all but the manifest
  });

  it("leaves the previous release current when the pointer cannot be written", async () => {
    await fromFirst();
    const failing: Storage = {
      ...storage,
      putPointer: () => Promise.reject(new Error("read-only file system")),
    };
    await expect(publish({ storage: failing, clock: fixedClock("2026-03-03T03:15:00Z") })).rejects.toThrow(
      "read-only file system",
    );
    expect((await readPointer(storage))?.release_id).toBe(FIRST);
    // the release written in full loses its manifest: nothing can take it for a complete one
    expect(await storage.list("releases/", { children: true })).toEqual([
      `releases/${FIRST}/`,
      "releases/2026-03-01_20260303T031500Z/",
      CURRENT_KEY,
    ]);
    expect(await storage.exists("releases/2026-03-01_20260303T031500Z/manifest.json")).toBe(false);
  });

  it("refuses an empty score_quality", async () => {
    await loadQualityRows(db, []);
    await expect(publish()).rejects.toThrow(
      "Refusing to publish: score_quality is empty, so the release would list no projects.",
    );
    expect(await readPointer(storage)).toBeUndefined();
  });

  it("refuses a release that shrank below the configured share, unless forced", async () => {
    await fromFirst();
    await loadQualityRows(db, FIXTURE_ROWS.slice(0, 10));
    const later = fixedClock("2026-03-03T03:15:00Z");
    await expect(publish({ clock: later })).rejects.toMatchObject({
      message: `Refusing to publish: score_quality has 10 projects, fewer than 11 (90% of the 12 in the live release ${FIRST}).`,
      hint: "Check the collection logs for failed sources; if the drop is real, publish again with --force.",
    });
    const logger = memoryLogger();
    const forced = await publish({ clock: later, force: true, logger });
    expect(forced.forced).toBe(
      `score_quality has 10 projects, fewer than 11 (90% of the 12 in the live release ${FIRST}); published anyway because of --force.`,
    );
    expect((await readPointer(storage))?.release_id).toBe("2026-03-01_20260303T031500Z");
    expect(logger.lines.some((l) => l.level === "warn" && String(l.msg).includes("--force"))).toBe(true);
    // 9 of 10 is within 90%
    await loadQualityRows(db, FIXTURE_ROWS.slice(0, 9));
    await expect(publish({ clock: fixedClock("2026-03-04T03:15:00Z") })).resolves.toMatchObject({
      projects: 9,
    });
  });

  it("keeps keepReleases old releases besides the current one and deletes the rest", async () => {
    await storage.put("releases/2026-02-01_20260202T000000Z/api/v1/quality/mcp/records.json", "[]"); // failed, no manifest
    const ids: string[] = [];
    for (const day of ["02", "03", "04", "05"]) {
      const report = await publish({
        config: config({ keepReleases: 2 }),
        clock: fixedClock(`2026-03-${day}T03:15:00Z`),
      });
      ids.push(report.releaseId);
    }
    const folders = await storage.list("releases/", { children: true });
    expect(folders).toEqual([
      `releases/${ids[1]}/`,
      `releases/${ids[2]}/`,
      `releases/${ids[3]}/`,
      CURRENT_KEY,
    ]);
    expect((await readPointer(storage))?.release_id).toBe(ids[3]);
  });

  it("gives a second release of the same second its own id", async () => {
    await fromFirst();
    const again = await publish();
    expect(again.releaseId).toBe(`${FIRST}-02`);
    expect(again.pruned).toEqual([]);
  });

  it("logs rendering progress", async () => {
    const render = first.log.lines.filter((l) => l.task === "publish:quality");
    expect(render.at(-1)).toMatchObject({ msg: "publish:quality: done", done: 12, records: 12 });
  });
});
