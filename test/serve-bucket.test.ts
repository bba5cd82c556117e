// Several shims serving one release from a bucket: a release (and its night's public database) published to a real
// s3rver by `projintel publish --target`, two `projintel serve --release s3://…` processes sharing a real redis-server
// and one server secret, each with a 64 KiB release cache. Both answer every page of the release as a reference shim on the same release does,
// count one quota, know each other's keys, answer POST /query from the bucket's public database, follow the next
// night, and keep answering what they hold while the bucket is down (what they do not hold: 503, enveloped).
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader, type ReleaseReader } from "../api-shim/release-reader.ts";
import { publishedFixture } from "../api-shim/testing.ts";
import { loadConfig } from "../core/config.ts";
import { publicDbPaths } from "../core/public-db.ts";
import { type Manifest, readManifest, readPointer } from "../publish/layout.ts";
import { ROUTES } from "../publish/routes/index.ts";
import { writeFixturePublicDb, writeFixtureWarehouse } from "./fixture-night.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "./redis-server.ts";
import { ONE_PUBLISHER_ENV, type S3TestServer, startS3Server } from "./s3-server.ts";
import { runCli, type ServeProcess, startServe } from "./serve-process.ts";

const BUCKET = "projintel-serve";
const LOCATION = `s3://${BUCKET}/prod`;
const NIGHTS = ["2026-03-01", "2026-03-02"] as const;
const LIMIT = 100;
const CACHE_BYTES = 64 * 1024;
const CHECK_EVERY_MS = 500;
const SECRET = "shared-secret-of-every-shim-0123456789";

let s3: S3TestServer;
let redis: RedisServer;
let dirs: Record<"build" | "a" | "b" | "cli", string>;
let shims: ServeProcess[];
let env: Record<string, string>;

beforeAll(async () => {
  [s3, redis] = await Promise.all([startS3Server(), startRedisServer()]);
  await s3.bucket(BUCKET);
  const names = ["build", "a", "b", "cli"] as const;
  const made = await Promise.all(names.map((name) => mkdtemp(path.join(tmpdir(), `serve-bucket-${name}-`))));
  dirs = Object.fromEntries(names.map((name, i) => [name, made[i]])) as typeof dirs;
  await publishToBucket(NIGHTS[0]);
  env = {
    ...s3.env,
    PROJINTEL_QUOTA__STORE: "redis",
    PROJINTEL_REDIS__URL: redis.url,
    // not a test of Redis's timeout: a busy machine must not turn a slow count into 503
    PROJINTEL_REDIS__COMMAND_TIMEOUT_MS: String(GENEROUS_COMMAND_TIMEOUT_MS),
    PROJINTEL_SERVER_SECRET: SECRET,
    PROJINTEL_QUOTA__ANONYMOUS: String(LIMIT),
    // each test speaks as its own client addresses (X-Forwarded-For), so their counts stay apart
    PROJINTEL_TRUST_PROXY_HOPS: "1",
    PROJINTEL_RELEASE__CACHE_BYTES: String(CACHE_BYTES),
    PROJINTEL_RELEASE__CHECK_EVERY_MS: String(CHECK_EVERY_MS),
    PROJINTEL_LOG_LEVEL: "debug",
  };
  shims = await Promise.all(
    [dirs.a, dirs.b].map((state) => startServe(["--release", LOCATION, "--state-dir", state], env)),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all((shims ?? []).map((shim) => shim.stop()));
  await Promise.all([s3?.stop(), redis?.close()]);
  await Promise.all(Object.values(dirs ?? {}).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function get(shim: ServeProcess, url: string, address: string, key?: string): Promise<Answer> {
  const res = await fetch(`${shim.url}${url}`, {
    headers: { "x-forwarded-for": address, ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function query(shim: ServeProcess, address: string): Promise<unknown> {
  const res = await fetch(`${shim.url}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ sql: "SELECT CAST(night AS VARCHAR) FROM night" }),
  });
  const body = (await res.json()) as { data?: { run_date: string; rows: unknown[][] } };
  return [res.status, body.data?.run_date, body.data?.rows];
}

async function servedRunDate(shim: ServeProcess, address: string): Promise<string | undefined> {
  const res = await get(shim, "/api/v1/status", address);
  return res.status === 200
    ? (JSON.parse(res.text) as { data: { run_date: string } }).data.run_date
    : undefined;
}

/**
 * A client address of its own for each request a test may repeat while it waits (198.18.0.0/15, the benchmarking
 * range), so that waiting never spends one address's quota.
 */
let addresses = 0;
const nextAddress = () => `198.18.${(++addresses >> 8) & 255}.${addresses & 255}`;

/** The response time is the one part of an answer that differs from shim to shim. */
const withoutTimestamp = (text: string) => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"-"');

/**
 * Every page of a release: each canonical page (`api/v1/<route>/<param>=<value>/offset=0.json` is the route's
 * default query), each item route's documented example, and each file route without parameters.
 */
function pageUrls(manifest: Manifest): string[] {
  const canonical = manifest.files.flatMap(({ path: file }) => {
    const match = /^(api\/v1\/.+?)((?:\/[a-z_]+=[^/]+)*)\/offset=0\.json$/.exec(file);
    if (!match) return [];
    const params = (match[2] ?? "").split("/").filter(Boolean);
    return [`/${match[1]}${params.length > 0 ? `?${params.join("&")}` : ""}`];
  });
  const items = ROUTES.filter((r) => r.kind === "item").flatMap((route) => {
    const example = manifest.examples[route.name];
    if (!example) return [];
    const query = new URLSearchParams();
    let url = route.path;
    for (const [name, value] of Object.entries(example)) {
      if (url.includes(`{${name}}`)) url = url.replace(`{${name}}`, encodeURIComponent(value));
      else query.set(name, value);
    }
    return [query.size > 0 ? `${url}?${query}` : url];
  });
  const files = ROUTES.filter((r) => r.kind === "file" && !r.path.includes("{")).map((r) => r.path);
  return [...new Set([...canonical, ...items, ...files])].sort();
}

/**
 * A shim in this process on the same night's release published to a local folder: the reference, a copy of the
 * fixture's release every shim test shares (api-shim/testing.ts; the same rows and night as the bucket's). Its
 * release id (named after its creation time) is the one thing that differs from the bucket's release.
 */
async function referenceShim(): Promise<{
  app: FastifyInstance;
  manifest: Manifest;
  releaseId: string;
  close(): Promise<void>;
}> {
  const fixture = await publishedFixture();
  const { storage } = fixture;
  const pointer = await readPointer(storage);
  const manifest = pointer && (await readManifest(storage, pointer.release_id));
  if (pointer?.run_date !== NIGHTS[0] || !manifest)
    throw new Error(`the reference release is not of ${NIGHTS[0]}`);
  const release: ReleaseReader = await openReleaseReader({ storage, checkEveryMs: 0 });
  const quotas: QuotaStore = await openEmbeddedQuotaStore();
  const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 1_000_000 } } });
  const app = buildApp({ config, release, quotas });
  return {
    app,
    manifest,
    releaseId: manifest.release_id,
    async close() {
      await app.close();
      release.close();
      await quotas.close();
      await fixture.cleanup();
    },
  };
}

/** Runs `projintel keys …` with the shims' Redis and secret; resolves with its stdout. */
const keysCli = (...args: string[]) =>
  runCli(["keys", ...args, "--state-dir", dirs.cli], { ...env, PROJINTEL_LOG_LEVEL: "error" });

/** `projintel publish --target s3://…` of the fixture's night, from the publishing state folder. */
async function publishToBucket(runDate: string): Promise<void> {
  await Promise.all([writeFixtureWarehouse(dirs.build, runDate), writeFixturePublicDb(dirs.build, runDate)]);
  await runCli(["publish", "--target", LOCATION, "--state-dir", dirs.build, "--force"], {
    ...s3.env,
    ...ONE_PUBLISHER_ENV,
    PROJINTEL_LOG_LEVEL: "error",
  });
}

describe("projintel serve --release s3://… (two shims, one bucket, one Redis)", () => {
  it("both answer every page of the release as the reference does, the same bytes, within a 64 KiB cache", async () => {
    const reference = await referenceShim();
    const live = await readPointer(s3.storage(BUCKET, "prod"));
    const asServed = (text: string) =>
      withoutTimestamp(text).replaceAll(reference.releaseId, live?.release_id ?? "");
    try {
      const urls = pageUrls(reference.manifest);
      // 60 canonical pages, the item routes' examples, the file routes
      expect(urls).toHaveLength(87);
      for (const [i, url] of urls.entries()) {
        const address = `10.1.${i >> 8}.${i & 255}`;
        const [a, b] = await Promise.all(shims.map((shim) => get(shim, url, address)));
        const expected = await reference.app.inject({ url });
        const seen = [a?.status, b?.status, withoutTimestamp(a?.text ?? ""), a?.headers.get("content-type")];
        expect(seen, url).toEqual([200, 200, asServed(expected.body), expected.headers["content-type"]]);
        expect(withoutTimestamp(b?.text ?? ""), url).toBe(withoutTimestamp(a?.text ?? ""));
      }
    } finally {
      await reference.close();
    }
    for (const shim of shims) {
      // the reader's accounting after every load: over the bound only while one entry alone is larger than it
      const loads = shim.logs("release cache") as {
        bytes: number;
        limit: number;
        entries: number;
        entry_bytes: number;
      }[];
      expect(
        loads.filter((l) => l.limit !== CACHE_BYTES || (l.bytes > CACHE_BYTES && l.entries > 1)),
      ).toEqual([]);
      // and the pages loaded were more than the cache holds, so entries were dropped and loaded again
      expect(loads.reduce((sum, l) => sum + l.entry_bytes, 0)).toBeGreaterThan(CACHE_BYTES);
    }
  }, 120_000);

  it(`counts one quota across both: of 150 requests from one address split over them, exactly ${LIMIT} answered`, async () => {
    const statuses = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const res = await get(
          shims[i % 2] as ServeProcess,
          "/api/v1/quality?domain=rag&limit=1",
          "203.0.113.50",
        );
        return res.status;
      }),
    );
    const tally: Record<number, number> = {};
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
    expect(tally).toEqual({ 200: LIMIT, 429: 150 - LIMIT });
  });

  it("a key created on one shim works on the other; projintel keys lists and revokes it for both", async () => {
    const [a, b] = shims as [ServeProcess, ServeProcess];
    const created = await fetch(`${a.url}/api/v1/keys`, {
      method: "POST",
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    const { key, prefix } = ((await created.json()) as { data: { key: string; prefix: string } }).data;
    const withKey = await get(b, "/api/v1/quality?domain=agents&limit=1", "198.51.100.8", key);
    expect([
      withKey.status,
      withKey.headers.get("x-ratelimit-limit"),
      withKey.headers.get("x-ratelimit-remaining"),
    ]).toEqual([200, "1000", "999"]);
    expect(await keysCli("list")).toContain(`${prefix}  free  1000`);
    expect(await keysCli("revoke", prefix)).toContain(`Revoked ${prefix} (free plan`);
    // a shim trusts a key it verified for a second; then the revocation reaches it
    await expect
      .poll(async () => (await get(b, "/api/v1/quality?domain=agents&limit=1", nextAddress(), key)).status, {
        // at most 150 of the key's 1,000 requests however slow the machine is
        timeout: 30_000,
        interval: 200,
      })
      .toBe(401);
    expect((await get(a, "/api/v1/quality?domain=agents&limit=1", "198.51.100.8", key)).status).toBe(401);
  });

  it("POST /api/v1/query answers from the bucket's public database, downloaded into each shim's state folder", async () => {
    for (const [i, shim] of shims.entries()) {
      expect(await query(shim, `198.51.100.${20 + i}`)).toEqual([200, NIGHTS[0], [[NIGHTS[0]]]]);
    }
    for (const state of [dirs.a, dirs.b]) {
      expect(await readdir(publicDbPaths(state).dir)).toEqual([`${NIGHTS[0]}.duckdb`]);
    }
  });

  it("the next night published to the bucket is served by both from the first pointer check after it, its public database downloaded first", async () => {
    await publishToBucket(NIGHTS[1]);
    const published = new Date().toISOString();
    const next = (await readPointer(s3.storage(BUCKET, "prod")))?.release_id;
    // Each shim says in its log when it switched: waiting reads the log, so no request (and no quota) is spent on
    // it, and a machine slowed by other work only makes the wait longer.
    await Promise.all(
      shims.map((shim) =>
        expect
          .poll(() => shim.logs("serving release").some((line) => line.run_date === NIGHTS[1]), {
            timeout: 60_000,
            interval: 100,
          })
          .toBe(true),
      ),
    );
    for (const shim of shims) {
      // bounded by the re-check interval plus the download: every pointer check begun after the publish found the
      // new release (the switch was made by the first check that could see it, or one already under way) …
      const checks = shim
        .logs("release pointer checked")
        .filter((line) => (line.started_at as string) > published)
        .map((line) => line.release_id);
      expect(new Set(checks)).toEqual(new Set(checks.length > 0 ? [next] : []));
      // … and the release went live only once the night's public database was downloaded
      const order = shim
        .logs()
        .filter((line) => line.run_date === NIGHTS[1])
        .map((line) => [line.msg, line.downloaded ?? null]);
      expect(order).toEqual([
        ["public database ready", true],
        ["serving release", null],
      ]);
    }
    for (const shim of shims) {
      expect(await servedRunDate(shim, nextAddress())).toBe(NIGHTS[1]);
      expect(await query(shim, nextAddress())).toEqual([200, NIGHTS[1], [[NIGHTS[1]]]]);
    }
  }, 120_000);

  it("a bucket that does not exist stops the shim at start, saying which and what to do", async () => {
    const missing = startServe(["--release", "s3://no-such-bucket/prod", "--state-dir", dirs.cli], env);
    await expect(missing).rejects.toThrow(
      /exited with code 1: [\s\S]*projintel: The API shim cannot read the release at s3:\/\/no-such-bucket\/prod: Bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+ \(\w+ s3:\/\/no-such-bucket\/prod\/releases\/current\.json\)\. Create the bucket/,
    );
  });

  it("bucket down: a page the shim holds is still 200, one it does not is 503 enveloped with X-RateLimit-*; back: 200", async () => {
    const shim = shims[0] as ServeProcess;
    const held = "/api/v1/status";
    const notHeld = "/api/v1/projects/acme--evalsuite";
    const before = await get(shim, held, "198.51.100.50");
    await s3.halt();
    try {
      const again = await get(shim, held, "198.51.100.50");
      expect([again.status, withoutTimestamp(again.text)]).toEqual([200, withoutTimestamp(before.text)]);
      const refused = await get(shim, notHeld, "198.51.100.51");
      expect(refused.status).toBe(503);
      expect((JSON.parse(refused.text) as { detail: { error: { code: string } } }).detail.error.code).toBe(
        "unavailable",
      );
      expect([
        refused.headers.get("x-ratelimit-limit"),
        refused.headers.get("x-ratelimit-remaining"),
      ]).toEqual([String(LIMIT), String(LIMIT - 1)]);
      expect(refused.headers.get("x-ratelimit-reset")).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\+00:00$/);
      // the pointer re-check failed meanwhile, and said it keeps the release it serves
      await expect
        .poll(
          () => shim.logs("cannot re-check the release pointer; still serving the previous release").length,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
    } finally {
      await s3.resume();
    }
    await expect
      .poll(async () => (await get(shim, notHeld, nextAddress())).status, { timeout: 30_000, interval: 200 })
      .toBe(200);
  }, 90_000);
});
