// The release reader: follows only the pointer, reloads, verifies against the manifest, bounds its cache.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { memoryLogger } from "../core/log.ts";
import { publishRelease } from "../publish/release.ts";
import { FIXTURE_ROWS, fixtureDb } from "../publish/testing.ts";
import { openReleaseReader, type ReleaseReader } from "./release-reader.ts";
import { type Fixture, publishedFixture } from "./testing.ts";

const FIRST = "2026-03-01_20260302T031500Z";
const SECOND = "2026-03-01_20260303T031500Z";
let fixture: Fixture;
let reader: ReleaseReader | undefined;

beforeEach(async () => {
  fixture = await publishedFixture();
});
afterEach(async () => {
  reader?.close();
  await fixture.cleanup();
});

const names = (data: { records: Buffer }) =>
  (JSON.parse(data.records.toString()) as { full_name: string }[]).map((r) => r.full_name);
const withoutAlpha = FIXTURE_ROWS.filter((r) => r.full_name !== "acme/alpha-server");

describe("release reader", () => {
  it("serves the release named by current.json and ignores folders it does not name", async () => {
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    // a publish in progress: files exist, the pointer has not moved
    await fixture.storage.put(`releases/${SECOND}/collections/quality/rag.json`, "[]");
    expect(await reader.reload()).toBe(false);
    expect(reader.current()?.release_id).toBe(FIRST);
    expect(names(await reader.partition("quality", "rag"))).toEqual(["fox/iota", "fox/kappa", "gnu/lambda"]);
  });

  it("loads a domain once and keeps it in memory", async () => {
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    expect(reader.peekPartition("quality", "mcp")).toBeUndefined();
    const [a, b] = await Promise.all([
      reader.partition("quality", "mcp"),
      reader.partition("quality", "mcp"),
    ]);
    expect(a).toBe(b);
    expect(reader.peekPartition("quality", "mcp")).toBe(a);
  });

  it("picks up a new release on reload and by itself", async () => {
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 20 });
    expect(names(await reader.partition("quality", "mcp"))[0]).toBe("acme/alpha-server");
    await fixture.publish(withoutAlpha, "2026-03-03T03:15:00Z");
    // every 20 ms; the wait is long only so that a machine slowed by other work cannot fail it
    await expect.poll(() => reader?.current()?.release_id, { timeout: 30_000 }).toBe(SECOND);
    expect(reader.peekPartition("quality", "mcp")).toBeUndefined();
    expect(names(await reader.partition("quality", "mcp"))[0]).toBe("acme/beta-sdk");
  });

  it("follows the pointer when the release it serves was pruned", async () => {
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    const db = await fixtureDb(withoutAlpha);
    await publishRelease({
      db,
      storage: fixture.storage,
      config: loadConfig({ overrides: { stateDir: fixture.root, publish: { keepReleases: 0 } } }),
      clock: { now: () => new Date("2026-03-03T03:15:00Z") },
    });
    db.close();
    expect(reader.current()?.release_id).toBe(FIRST);
    expect(names(await reader.partition("quality", "mcp"))[0]).toBe("acme/beta-sdk");
    expect(reader.current()?.release_id).toBe(SECOND);
  });

  it("refuses data that does not match the manifest", async () => {
    const logger = memoryLogger();
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0, logger });
    const file = path.join(fixture.root, "releases", FIRST, "collections/quality/rag.json");
    await writeFile(file, "[]");
    await expect(reader.partition("quality", "rag")).rejects.toMatchObject({
      code: "unavailable",
      status: 503,
    });
    expect(logger.lines.at(-1)).toMatchObject({
      level: "error",
      msg: "cannot load release data",
      key: "quality/rag",
      error: `Error: collections/quality/rag.json of release ${FIRST} does not match its manifest`,
    });
  });

  it("drops the least recently used domains beyond its byte budget", async () => {
    // the budget holds mcp and rag but not all three: sizes as the reader counts them (records, index words)
    const probe = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    const size = async (p: string) => {
      const data = await probe.partition("quality", p);
      return data.records.length + data.index.offsets.byteLength * 4;
    };
    const budget = (await size("mcp")) + (await size("rag")) + (await size("agents")) - 1;
    probe.close();
    reader = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0, cacheBytes: budget });
    await reader.partition("quality", "mcp");
    await reader.partition("quality", "agents");
    expect(reader.peekPartition("quality", "mcp")).toBeDefined();
    await reader.partition("quality", "rag"); // over budget: agents was used least recently
    expect(reader.peekPartition("quality", "agents")).toBeUndefined();
    expect(reader.peekPartition("quality", "mcp")).toBeDefined();
    expect(reader.peekPartition("quality", "rag")).toBeDefined();
  });
});
