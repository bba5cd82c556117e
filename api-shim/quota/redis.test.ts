// The Redis quota store against a real redis-server: exact under concurrency, keys stored as HMACs expiring at the
// next midnight UTC, and a server that goes away answered with 503 unavailable (enveloped, uncounted) until it is back.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextUtcMidnight, systemClock } from "../../core/clock.ts";
import { loadConfig } from "../../core/config.ts";
import { type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import { buildApp } from "../app.ts";
import { keyedHash } from "../keys/secret.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, publishedFixture } from "../testing.ts";
import { QuotaUnavailableError } from "./quota.ts";
import { openRedisQuotaStore } from "./redis.ts";

let redis: RedisServer;
let fixture: Fixture;
beforeAll(async () => {
  // quotas only: persistence off, so a restart starts the counts from zero
  redis = await startRedisServer({ persistent: false });
  fixture = await publishedFixture();
});
afterAll(async () => {
  await redis?.close();
  await fixture?.cleanup();
});

const SECRET = "r".repeat(64);
const COMMAND_TIMEOUT_MS = 300;
const open = () =>
  openRedisQuotaStore({ url: redis.url, commandTimeoutMs: COMMAND_TIMEOUT_MS, secret: SECRET });

describe("Redis quota store", () => {
  it("admits exactly the limit of 200 concurrent hits from two clients, stored by HMAC until midnight UTC", async () => {
    const [a, b] = [await open(), await open()];
    // Real time: Redis expires keys by its own clock, so a frozen past date would expire them at once.
    const now = new Date();
    const hits = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit("ip:203.0.113.5", 70, now)),
    );
    expect(hits.filter((h) => h.count <= h.limit)).toHaveLength(70);
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    expect(await a.peek("ip:203.0.113.5", 70, now)).toEqual({
      limit: 70,
      count: 200,
      remaining: 0,
      resetAt: nextUtcMidnight(now),
    });

    const client = new Redis(redis.url);
    const day = now.toISOString().slice(0, 10);
    const stored = `projintel:quota:${day}:${keyedHash(SECRET, "quota:ip:203.0.113.5")}`;
    expect(await client.keys("*")).toEqual([stored]);
    expect(await client.pexpiretime(stored)).toBe(nextUtcMidnight(now).getTime());
    client.disconnect();
    await a.close();
    await b.close();
  });

  it("answers 503 unavailable, enveloped with the anonymous limit and uncounted, while Redis is down", async () => {
    const quotas = await open();
    const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 50 } } });
    const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    const app = buildApp({ config, release, quotas, clock: systemClock });
    const get = () =>
      app.inject({ url: "/api/v1/quality?domain=rag&limit=1", remoteAddress: "198.51.100.9" });
    expect((await get()).headers["x-ratelimit-remaining"]).toBe("49");

    await redis.stop();
    const started = Date.now();
    await expect(quotas.hit("ip:x", 1, new Date())).rejects.toBeInstanceOf(QuotaUnavailableError);
    const down = await get();
    // a deadline, not a speed: two commands that each give up at the timeout, with a margin a busy machine keeps
    expect(Date.now() - started).toBeLessThan(2 * COMMAND_TIMEOUT_MS + 2_000);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      detail: {
        error: {
          code: "unavailable",
          message: "Request counting is unavailable for a moment; retry in a few seconds.",
          request_id: expect.any(String),
        },
      },
    });
    expect([down.headers["x-ratelimit-limit"], down.headers["x-ratelimit-remaining"]]).toEqual(["50", "50"]);
    expect(down.headers["retry-after"]).toBe("5");

    // back: counting resumes where it was (the server kept no data, so from zero here: persistence is off)
    await redis.restart();
    // 503s are not counted, so waiting spends one request of the 50
    await expect.poll(async () => (await get()).statusCode, { timeout: 30_000, interval: 100 }).toBe(200);
    await app.close();
    release.close();
    await quotas.close();
  });
});
