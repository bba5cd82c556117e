// Quotas across real processes over loopback HTTP: `projintel serve` children, 200 concurrent requests, exactly
// `limit` admitted — by one shim on the embedded store and by two shims sharing a real redis-server; a second shim
// on an embedded store's folder refused; a kill -9 losing no count older than a second.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyedHash } from "../api-shim/keys/secret.ts";
import { readQuotaLog } from "../api-shim/quota/embedded.ts";
import { type Fixture, publishedFixture } from "../api-shim/testing.ts";
import { statePaths } from "../core/config.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "./redis-server.ts";
import { startServe } from "./serve-process.ts";

const LIMIT = 70;
const URL_PATH = "/api/v1/quality?domain=rag&limit=1";

let fixture: Fixture;
let redis: RedisServer;
beforeAll(async () => {
  [fixture, redis] = await Promise.all([publishedFixture(), startRedisServer()]);
});
afterAll(async () => {
  await redis?.close();
  await fixture?.cleanup();
});

// Every test starts from no counts (the shims share one state folder and one address, 127.0.0.1).
beforeEach(async () => {
  await rm(statePaths({ stateDir: fixture.root }).quotas, { force: true });
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
});

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }
});

/** Starts `projintel serve` on a free port; resolves with its URL, or rejects with its stderr if it stops. */
async function serve(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const shim = await startServe(["--state-dir", fixture.root], {
    PROJINTEL_QUOTA__ANONYMOUS: String(LIMIT),
    PROJINTEL_LOG_LEVEL: "error",
    ...env,
  });
  children.push(shim.child);
  return shim;
}

/** The count of 127.0.0.1 in the embedded store's log, as a restart would read it. */
async function loggedCount(): Promise<number | undefined> {
  const paths = statePaths({ stateDir: fixture.root });
  const secret = (await readFile(paths.secret, "utf8")).trim();
  return (await readQuotaLog(paths.quotas))?.counts[keyedHash(secret, "quota:ip:127.0.0.1")];
}

/** Sends `n` requests at once, spread over the URLs in turn; the statuses, sorted by count. */
async function burst(urls: string[], n: number): Promise<Record<number, number>> {
  const statuses = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${urls[i % urls.length]}${URL_PATH}`);
      await res.arrayBuffer();
      return res.status;
    }),
  );
  const tally: Record<number, number> = {};
  for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
  return tally;
}

describe("quotas across processes", () => {
  it("embedded store: exactly the limit of 200 concurrent requests; a second shim on the folder is refused", async () => {
    const { url } = await serve();
    expect(await burst([url], 200)).toEqual({ 200: LIMIT, 429: 200 - LIMIT });
    await expect(serve()).rejects.toThrow(
      /The embedded quota store's state folder is already used by another process \(pid \d+, lock .*quotas\.lock\)\. Run one shim per state folder, or run several with the Redis quota store \(PROJINTEL_QUOTA__STORE=redis/,
    );
  });

  it("embedded store: after a kill -9 more than a second after N requests, a restart has limit - N left and the keys", async () => {
    const first = await serve();
    const n = 30;
    // first a key, which must outlive the kill (it is fsynced before it is returned); creating it is never counted
    // against the request quota (docs/api.md), so the n requests counted are the n - 1 reads below and the one after
    const created = await fetch(`${first.url}/api/v1/keys`, { method: "POST" });
    const { key } = ((await created.json()) as { data: { key: string } }).data;
    for (let i = 1; i < n; i++) await (await fetch(`${first.url}${URL_PATH}`)).arrayBuffer();
    // the store writes its counts once a second: wait for that write (on a busy machine it may lag), not a fixed time
    await expect.poll(() => loggedCount(), { timeout: 30_000, interval: 100 }).toBe(n - 1);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    // the lock of the killed process is stale: the restart takes it over
    const second = await serve();
    const res = await fetch(`${second.url}${URL_PATH}`);
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - n));
    const withKey = await fetch(`${second.url}${URL_PATH}`, { headers: { authorization: `Bearer ${key}` } });
    expect([
      withKey.status,
      withKey.headers.get("x-ratelimit-limit"),
      withKey.headers.get("x-ratelimit-remaining"),
    ]).toEqual([200, "1000", "999"]);
  });

  it("Redis store: two shims share one count, exactly the limit of 200 concurrent requests", async () => {
    // a generous command timeout: 200 requests at once on a busy machine must be counted, not answered 503
    const env = {
      PROJINTEL_QUOTA__STORE: "redis",
      PROJINTEL_REDIS__URL: redis.url,
      PROJINTEL_REDIS__COMMAND_TIMEOUT_MS: String(GENEROUS_COMMAND_TIMEOUT_MS),
    };
    const [a, b] = await Promise.all([serve(env), serve(env)]);
    expect(await burst([a.url, b.url], 200)).toEqual({ 200: LIMIT, 429: 200 - LIMIT });

    // Redis gone: a URL answered before (the fast path's) and a new one both get 503, never served uncounted
    await redis.stop();
    try {
      for (const url of [`${a.url}${URL_PATH}`, `${b.url}/api/v1/quality?domain=agents`]) {
        const res = await fetch(url);
        expect(res.status).toBe(503);
        expect(((await res.json()) as { detail: { error: { code: string } } }).detail.error.code).toBe(
          "unavailable",
        );
        expect([res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")]).toEqual([
          String(LIMIT),
          String(LIMIT),
        ]);
      }
    } finally {
      await redis.restart();
    }
  });
});
