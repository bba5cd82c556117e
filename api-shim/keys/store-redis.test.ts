// The Redis key store against a real redis-server: a key created by one store is verified by another at once, the
// stored record holds no key or address, a revocation reaches the other store within its refresh interval, a store
// with another server secret is refused, and Redis gone is QuotaUnavailableError (503), never "unknown key" (401).
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../core/errors.ts";
import { GENEROUS_COMMAND_TIMEOUT_MS, type RedisServer, startRedisServer } from "../../test/redis-server.ts";
import { QuotaUnavailableError } from "../quota/quota.ts";
import { movableClock } from "../testing.ts";
import { mistyped } from "./keys.testing.ts";
import { keyedHash } from "./secret.ts";
import { KEYS_HASH, openRedisKeyStore, SECRET_FINGERPRINT_KEY } from "./store-redis.ts";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});
beforeEach(async () => {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
});

const SECRET = "k".repeat(64);
const clock = movableClock("2026-03-02T10:00:00Z");
const options = (secret: string) => ({
  url: redis.url,
  commandTimeoutMs: GENEROUS_COMMAND_TIMEOUT_MS,
  secret,
  limits: { free: 1000, email: 10_000 },
  clock,
  refreshMs: 1000,
});
const open = (secret = SECRET) => openRedisKeyStore(options(secret));

describe("Redis key store", () => {
  it("a key created by one store is verified by another at once; Redis holds only HMACs", async () => {
    const [a, b] = [await open(), await open()];
    try {
      const { key, record } = await a.create("email", "Dev@Example.com");
      expect(record).toEqual({
        hash: keyedHash(SECRET, key),
        prefix: key.slice(0, 12),
        plan: "email",
        created: "2026-03-02T10:00:00.000Z",
        contact: keyedHash(SECRET, "email:dev@example.com"),
      });
      expect(await b.verify(key)).toEqual({ quotaKey: `key:${record.hash}`, limit: 10_000 });
      expect(await b.verify(mistyped(key))).toBeUndefined();

      const client = new Redis(redis.url);
      const stored = await client.hgetall(KEYS_HASH);
      client.disconnect();
      expect(stored).toEqual({ [record.hash]: JSON.stringify(record) });
      expect(JSON.stringify(stored)).not.toContain(key);
      expect(JSON.stringify(stored).toLowerCase()).not.toContain("example.com");

      await b.refresh();
      expect(b.list()).toEqual([record]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a revocation reaches the other store once its trust of the key (1 s) has run out", async () => {
    const [a, b] = [await open(), await open()];
    try {
      const { key, record } = await a.create("free");
      expect(await b.verify(key)).toEqual({ quotaKey: `key:${record.hash}`, limit: 1000 });
      await a.revoke(record.hash);
      expect(await a.verify(key)).toBeUndefined();
      expect(await b.verify(key)).toEqual({ quotaKey: `key:${record.hash}`, limit: 1000 }); // trusted for 1 s
      clock.set("2026-03-02T10:00:01Z");
      expect(await b.verify(key)).toBeUndefined();
      await a.revoke(record.hash); // a second revocation keeps the first time
      await a.refresh();
      expect(a.list()).toEqual([{ ...record, revoked: "2026-03-02T10:00:00.000Z" }]);
    } finally {
      clock.set("2026-03-02T10:00:00Z");
      await a.close();
      await b.close();
    }
  });

  it("refuses a store whose server secret differs from the one Redis has seen", async () => {
    // projintel keys (claimSecret false) compares but never records: an operator's wrong secret cannot be the first
    const other = "o".repeat(64);
    const cli = await openRedisKeyStore({ ...options(other), claimSecret: false });
    await cli.close();
    const first = await open();
    await first.close();
    await expect(openRedisKeyStore({ ...options(other), claimSecret: false })).rejects.toBeInstanceOf(
      ConfigError,
    );
    const refused = open(other);
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      /This shim's server secret differs from the one the other shims sharing redis:\/\/127\.0\.0\.1:\d+ use/,
    );
    const client = new Redis(redis.url);
    expect(await client.get(SECRET_FINGERPRINT_KEY)).toBe(keyedHash(SECRET, SECRET_FINGERPRINT_KEY));
    client.disconnect();
  });

  it("Redis gone: verify and create reject with QuotaUnavailableError (a 503), and work again once it is back", async () => {
    const store = await open();
    try {
      const { key } = await store.create("free");
      await redis.stop();
      clock.set("2026-03-02T10:00:05Z");
      await expect(Promise.resolve(store.verify(key))).rejects.toBeInstanceOf(QuotaUnavailableError);
      await expect(store.create("free")).rejects.toBeInstanceOf(QuotaUnavailableError);
      await redis.restart();
      // Redis keeps an append-only file (the store refuses one without): the key is back with it
      await expect
        .poll(() => Promise.resolve(store.verify(key)).catch(() => "down"), { timeout: 30_000 })
        .toEqual({ quotaKey: expect.stringMatching(/^key:/), limit: 1000 });
    } finally {
      clock.set("2026-03-02T10:00:00Z");
      await store.close();
    }
  });
});
