// Fair quotas for file reads: a caller pays one request per file per day, however many HEADs and ranged GETs its
// reader sends — in the embedded store (kept across a restart) and in Redis (real redis-server, exact under
// concurrency), and over real sockets with hyparquet, a Parquet reader nobody here wrote, reading as it always does.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextUtcMidnight } from "../../core/clock.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import {
  type Fixture,
  listenOnLoopback,
  movableClock,
  publishedFixture,
  type TestApp,
  testApp,
} from "../testing.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "./quota.ts";
import { openRedisQuotaStore } from "./redis.ts";

const FILE = "/datasets/quality.parquet";
const OTHER = "/datasets/projects.parquet";

/** The store contract of hitOnce, run on each store. */
async function paysOncePerFile(store: QuotaStore, now: Date): Promise<void> {
  const reset = nextUtcMidnight(now);
  expect(await store.hitOnce("ip:a", FILE, 3, now)).toEqual({
    limit: 3,
    count: 1,
    remaining: 2,
    resetAt: reset,
  });
  // the same file again (a HEAD, ranges): not counted, marked paid
  for (let i = 0; i < 5; i++) {
    expect(await store.hitOnce("ip:a", FILE, 3, now)).toEqual({
      limit: 3,
      count: 1,
      remaining: 2,
      resetAt: reset,
      paid: true,
    });
  }
  // another caller pays for the same file itself
  expect(await store.hitOnce("ip:b", FILE, 3, now)).toMatchObject({ count: 1 });
  expect(await store.hitOnce("ip:a", OTHER, 3, now)).toMatchObject({ count: 2 });
  expect(await store.hit("ip:a", 3, now)).toMatchObject({ count: 3 });
  // over the quota: a new file is counted and refused, and not paid for by the refusal
  expect(await store.hitOnce("ip:a", "/datasets/quality.arrow", 3, now)).toMatchObject({
    count: 4,
    remaining: 0,
  });
  expect(await store.hitOnce("ip:a", "/datasets/quality.arrow", 3, now)).toMatchObject({ count: 5 });
  // a file paid for before is still read past the quota
  expect(await store.hitOnce("ip:a", FILE, 3, now)).toMatchObject({ count: 5, paid: true });
  expect(await store.peek("ip:a", 3, now)).toMatchObject({ count: 5 });
}

describe("embedded quota store: file reads", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "quota-files-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("pays once per file and caller a day, and remembers what was paid across a restart", async () => {
    const now = new Date("2026-03-02T10:00:00Z");
    const file = path.join(dir, "quotas.jsonl");
    const store = await openEmbeddedQuotaStore({ file, secret: "s".repeat(40) });
    await paysOncePerFile(store, now);
    await store.close();
    const again = await openEmbeddedQuotaStore({ file, secret: "s".repeat(40) });
    expect(await again.hitOnce("ip:a", FILE, 3, now)).toMatchObject({ count: 5, paid: true });
    expect(await again.hitOnce("ip:b", OTHER, 3, now)).toMatchObject({ count: 2 });
    // the next day everything is paid for again
    const tomorrow = new Date("2026-03-03T00:00:01Z");
    expect(await again.hitOnce("ip:a", FILE, 3, tomorrow)).toEqual({
      limit: 3,
      count: 1,
      remaining: 2,
      resetAt: nextUtcMidnight(tomorrow),
    });
    await again.close();
  });
});

describe("Redis quota store: file reads", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.close());

  it("pays once per file and caller a day, exactly, from two stores at once", async () => {
    const open = () =>
      openRedisQuotaStore({
        url: redis.url,
        commandTimeoutMs: GENEROUS_COMMAND_TIMEOUT_MS,
        secret: "r".repeat(64),
      });
    const [a, b] = [await open(), await open()];
    const now = new Date();
    await paysOncePerFile(a, now);
    // 100 concurrent reads of one new file through two shims: one counted
    const hits = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hitOnce("ip:c", FILE, 10, now)),
    );
    expect(hits.filter((h) => h.paid === undefined).map((h) => h.count)).toEqual([1]);
    expect(hits.filter((h) => h.paid)).toHaveLength(99);
    expect(await b.peek("ip:c", 10, now)).toMatchObject({ count: 1 });
    await a.close();
    await b.close();
  });
});

describe("a real Parquet reader over HTTP", () => {
  let fixture: Fixture;
  let shim: TestApp;
  let base: string;
  const clock = movableClock("2026-03-02T10:00:00Z");
  beforeAll(async () => {
    fixture = await publishedFixture();
    shim = await testApp(fixture, { clock, config: { quota: { anonymous: 5 } } });
    base = `http://127.0.0.1:${await listenOnLoopback(shim.app)}`;
  });
  afterAll(async () => {
    await shim.close();
    await fixture.cleanup();
  });

  it("costs one request per file however many HEADs and ranges hyparquet sends, within the anonymous 5", async () => {
    const seen: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const range = new Headers(init?.headers).get("range");
      seen.push(
        `${init?.method ?? "GET"} ${res.status}${range ? ` ${range}` : ""} ${res.headers.get("x-ratelimit-remaining")}`,
      );
      return res;
    };
    const read = async (url: string) => {
      const file = await asyncBufferFromUrl({ url: base + url, fetch: counting });
      const metadata = await parquetMetadataAsync(file);
      const rows = await parquetReadObjects({
        file,
        metadata,
        compressors,
        columns: ["full_name", "quality_score"],
      });
      return { rows: rows.length, total: Number(metadata.num_rows) };
    };
    // three passes over two files: 2 of the 5 requests paid, every request answered
    for (let pass = 0; pass < 3; pass++) {
      expect(await read(FILE)).toEqual({ rows: 12, total: 12 });
      expect((await read(OTHER)).rows).toBeGreaterThan(0);
    }
    expect(seen.filter((s) => s.startsWith("HEAD 200"))).toHaveLength(6);
    // each read: a HEAD for the size, a ranged GET for the footer, one for the two columns' chunks
    expect(seen).toHaveLength(18);
    expect(seen.filter((s) => /^GET 206 bytes=\d+-\d+ /.test(s))).toHaveLength(12);
    expect(new Set(seen.map((s) => s.split(" ").at(-1)))).toEqual(new Set(["4", "3"]));
    const status = await fetch(`${base}/api/v1/status`);
    expect(status.headers.get("x-ratelimit-remaining")).toBe("2");
  });
});
