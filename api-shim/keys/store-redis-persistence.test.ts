// Keys are never lost to a Redis restart: the Redis key store refuses a Redis without an append-only file, at start
// and again when Redis comes back from a restart without one, saying what to set — against real redis-servers.
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../core/errors.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import { QuotaUnavailableError } from "../quota/quota.ts";
import { movableClock } from "../testing.ts";
import { openRedisKeyStore } from "./store-redis.ts";

const SECRET = "k".repeat(64);
const clock = movableClock("2026-03-02T10:00:00Z");
const servers: RedisServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(persistent: boolean): Promise<RedisServer> {
  const server = await startRedisServer({ persistent });
  servers.push(server);
  return server;
}

const open = (url: string) =>
  openRedisKeyStore({
    url,
    commandTimeoutMs: GENEROUS_COMMAND_TIMEOUT_MS,
    secret: SECRET,
    limits: { free: 1000, email: 10_000 },
    clock,
  });

const refusal = (url: string) =>
  `Redis at ${url} keeps the API keys only in memory (no append-only file): a restart would lose every key users were given.`;

describe("Redis key store persistence", () => {
  it("refuses to open on a Redis without an append-only file, saying what to set", async () => {
    const redis = await start(false);
    const refused = await open(redis.url).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toBe(refusal(redis.url));
    expect((refused as ConfigError).hint).toBe(
      "Turn on its append-only file (appendonly yes in redis.conf, or CONFIG SET appendonly yes then CONFIG REWRITE) and start again; a single shim may keep keys in the state folder instead (PROJINTEL_QUOTA__STORE=embedded).",
    );
  });

  it("keys survive a restart of a Redis with an append-only file", async () => {
    const redis = await start(true);
    const store = await open(redis.url);
    try {
      const { key, record } = await store.create("free");
      await redis.restart();
      clock.set("2026-03-02T10:00:05Z"); // past the 1 s the store trusts a key without asking Redis
      await expect
        .poll(() => Promise.resolve(store.verify(key)).catch(() => "down"), { timeout: 30_000 })
        .toEqual({ quotaKey: `key:${record.hash}`, limit: 1000 });
    } finally {
      clock.set("2026-03-02T10:00:00Z");
      await store.close();
    }
    const reopened = await open(redis.url);
    await reopened.refresh();
    expect(reopened.list()).toHaveLength(1);
    await reopened.close();
  });

  it("a Redis restarted without persistence is refused (503 with the reason), never taken for unknown keys", async () => {
    const redis = await start(true);
    const store = await open(redis.url);
    try {
      const { key } = await store.create("free");
      await redis.restart({ persistent: false });
      clock.set("2026-03-02T10:00:05Z");
      // the keys are gone from this Redis: answered 503 (what to set), not 401 invalid_api_key
      await expect
        .poll(() => Promise.resolve(store.verify(key)).catch((error: unknown) => error), { timeout: 30_000 })
        .toEqual(new QuotaUnavailableError(refusal(redis.url)));
      await expect(store.create("free")).rejects.toThrow(refusal(redis.url));
    } finally {
      clock.set("2026-03-02T10:00:00Z");
      await store.close();
    }
  });
});
