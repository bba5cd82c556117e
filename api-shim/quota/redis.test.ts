// The Redis quota store against a real redis-server: exact under concurrency, keys stored as HMACs expiring at the
// next midnight UTC, and a server that goes away or stops answering (past the command timeout) answered with 503
// unavailable (enveloped, uncounted) until it is back.
import type { LightMyRequestResponse } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextUtcMidnight, systemClock } from "../../core/clock.ts";
import { loadConfig } from "../../core/config.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import { buildApp } from "../app.ts";
import { keyedHash } from "../keys/secret.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, publishedFixture } from "../testing.ts";
import { type QuotaStore, QuotaUnavailableError } from "./quota.ts";
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
/** The command timeout of the one test of that timeout; the others wait as long as a busy machine needs. */
const COMMAND_TIMEOUT_MS = 300;
const open = (commandTimeoutMs = GENEROUS_COMMAND_TIMEOUT_MS) =>
  openRedisQuotaStore({ url: redis.url, commandTimeoutMs, secret: SECRET });

/** A shim answering from the fixture's release with `quotas`, 50 anonymous requests a day. */
async function shimWith(quotas: QuotaStore) {
  const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 50 } } });
  const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
  const app = buildApp({ config, release, quotas, clock: systemClock });
  return {
    get: () => app.inject({ url: "/api/v1/quality?domain=rag&limit=1", remoteAddress: "198.51.100.9" }),
    async close() {
      await app.close();
      release.close();
      await quotas.close();
    },
  };
}

/** What the shim answers while requests cannot be counted. */
async function expectUnavailable(down: LightMyRequestResponse) {
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
}

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
    const shim = await shimWith(await open());
    expect((await shim.get()).headers["x-ratelimit-remaining"]).toBe("49");

    await redis.stop();
    const started = Date.now();
    const down = await shim.get();
    // a server that is gone fails each command at once (no offline queue): the request does not wait out the
    // command timeout, with a margin a busy machine keeps
    expect(Date.now() - started).toBeLessThan(GENEROUS_COMMAND_TIMEOUT_MS / 3);
    await expectUnavailable(down);

    // back: counting resumes where it was (the server kept no data, so from zero here: persistence is off)
    await redis.restart();
    // 503s are not counted, so waiting spends one request of the 50
    await expect
      .poll(async () => (await shim.get()).statusCode, { timeout: 30_000, interval: 100 })
      .toBe(200);
    await shim.close();
  });

  it("answers 503 once a command has waited the command timeout on a Redis that stopped answering", async () => {
    // the one test of the timeout path: a short timeout, and a server frozen (SIGSTOP) with its connections open
    const quotas = await open(COMMAND_TIMEOUT_MS);
    const shim = await shimWith(quotas);
    redis.freeze();
    try {
      const started = Date.now();
      const error = await Promise.resolve()
        .then(() => quotas.hit("ip:x", 1, new Date()))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaUnavailableError);
      expect((error as Error).message).toBe(
        `The Redis server at ${redis.url} did not answer: Command timed out`,
      );
      await expectUnavailable(await shim.get());
      const waited = Date.now() - started;
      // it waited the timeout, twice (the hit, then the request), and no longer than that with a margin load keeps
      expect(waited).toBeGreaterThanOrEqual(2 * COMMAND_TIMEOUT_MS);
      expect(waited).toBeLessThan(2 * COMMAND_TIMEOUT_MS + 2_000);
    } finally {
      redis.thaw();
    }
    // the server answers again: so does the shim, counting (503s were not counted)
    await expect
      .poll(async () => (await shim.get()).statusCode, { timeout: 30_000, interval: 100 })
      .toBe(200);
    await shim.close();
  });
});
