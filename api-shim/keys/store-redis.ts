// The key store several shims share (config.quota.store=redis): each key's record in one Redis hash, by the key's
// HMAC — like keys.jsonl, it never holds a key or an e-mail address. A key created at one shim is found by every
// other at once (an unknown key is always looked up in Redis); a revocation reaches them within `refreshMs`. The
// HMACs only match across shims that share one server secret, so the first shim stores a fingerprint of its secret
// and a shim with another secret is refused. Redis is the keys' only home, so a Redis without an append-only file
// (which a restart would empty of every key users were given) is refused too, saying what to set.
import { timingSafeEqual } from "node:crypto";
import type { Clock } from "../../core/clock.ts";
import { ConfigError } from "../../core/errors.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import type { Caller } from "../caller.ts";
import { QuotaUnavailableError } from "../quota/quota.ts";
import { connectRedis, redactedUrl, redisUnavailable } from "../quota/redis-client.ts";
import { keyedHash } from "./secret.ts";
import { byCreated, type KeyPlan, type KeyRecord, type KeyStore, keyQuotaKey, newKey } from "./store.ts";

/** The hash of every key's record, field = the key's HMAC. */
export const KEYS_HASH = "projintel:keys";
/** An HMAC of a fixed text under the server secret: equal on every shim sharing the secret, and reveals nothing. */
export const SECRET_FINGERPRINT_KEY = "projintel:secret-fingerprint";

/** Sets `revoked` on a stored record once (a second revocation keeps the first time). */
const REVOKE_SCRIPT = `
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if not stored then return 0 end
local record = cjson.decode(stored)
if record.revoked then return 1 end
record.revoked = ARGV[2]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(record))
return 1`;

type ScriptedRedis = Awaited<ReturnType<typeof connectRedis>> & {
  revokeKey(hashKey: string, hash: string, at: string): Promise<number>;
};

export interface RedisKeyStoreOptions {
  url: string;
  commandTimeoutMs: number;
  secret: string;
  limits: Record<KeyPlan, number>;
  clock: Clock;
  /** How long a key found valid is trusted before it is looked up again (default 1000 ms; a revocation's delay). */
  refreshMs?: number;
  /**
   * Record this secret's fingerprint when Redis has none yet (a shim: default true). `projintel keys` only compares,
   * so an operator's machine with the wrong secret can never be the one that sets it.
   */
  claimSecret?: boolean;
  logger?: Logger;
}

export async function openRedisKeyStore(options: RedisKeyStoreOptions): Promise<KeyStore> {
  const { secret, limits, clock, url } = options;
  const refreshMs = options.refreshMs ?? 1000;
  const logger = options.logger ?? silentLogger;
  const redis = (await connectRedis({
    url,
    commandTimeoutMs: options.commandTimeoutMs,
    logger,
    purpose: "key store",
  })) as ScriptedRedis;
  redis.defineCommand("revokeKey", { numberOfKeys: 1, lua: REVOKE_SCRIPT });
  // a Redis back from a restart is checked again: it may have come back without its append-only file
  redis.on("ready", () => {
    secretChecked = undefined;
  });
  const fingerprint = keyedHash(secret, SECRET_FINGERPRINT_KEY);
  /** Keys found valid, with when they were looked up. */
  const trusted = new Map<string, { record: KeyRecord; at: number }>();
  let listed: KeyRecord[] = [];
  let secretChecked: Promise<void> | undefined;

  /**
   * Once per process (again after a failure to ask): Redis keeps what it is given across a restart, and this shim's
   * secret is the one Redis has seen.
   */
  function checkSecret(): Promise<void> {
    secretChecked ??= (async () => {
      if (!/^aof_enabled:1\r?$/m.test(await redis.info("persistence"))) throw notPersistent(url);
      if (options.claimSecret ?? true) await redis.set(SECRET_FINGERPRINT_KEY, fingerprint, "NX");
      const stored = await redis.get(SECRET_FINGERPRINT_KEY);
      if (stored !== null && stored !== fingerprint) throw secretMismatch(url);
    })().catch((error: unknown) => {
      if (!(error instanceof ConfigError)) secretChecked = undefined;
      throw error;
    });
    return secretChecked;
  }

  /** Runs a Redis command after the secret check; Redis failures become QuotaUnavailableError (503). */
  async function ask<T>(command: () => Promise<T>): Promise<T> {
    try {
      await checkSecret();
      return await command();
    } catch (error) {
      if (error instanceof ConfigError) {
        logger.error("key store refused", { redis: redactedUrl(url), reason: error.message });
        throw new QuotaUnavailableError(error.message, { cause: error });
      }
      throw redisUnavailable(url, error);
    }
  }

  const caller = (record: KeyRecord): Caller | undefined =>
    record.revoked ? undefined : { quotaKey: keyQuotaKey(record), limit: limits[record.plan] };

  async function lookUp(hash: string): Promise<Caller | undefined> {
    const stored = await ask(() => redis.hget(KEYS_HASH, hash));
    if (stored === null) return undefined;
    const record = JSON.parse(stored) as KeyRecord;
    // Found by hash; the stored hash is still compared in constant time, as the design asks.
    if (!timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(hash, "hex"))) return undefined;
    trusted.set(hash, { record, at: clock.now().getTime() });
    return caller(record);
  }

  try {
    await checkSecret();
  } catch (error) {
    if (error instanceof ConfigError) {
      redis.disconnect();
      throw error;
    }
    // Redis unreachable: checked on the first request instead (which gets 503 until Redis answers).
  }

  return {
    verify(token) {
      const hash = keyedHash(secret, token);
      const known = trusted.get(hash);
      if (known && clock.now().getTime() - known.at < refreshMs) return caller(known.record);
      return lookUp(hash);
    },
    async create(plan: KeyPlan, email?: string) {
      const { key, record } = newKey(secret, plan, email, clock);
      const added = await ask(() => redis.hsetnx(KEYS_HASH, record.hash, JSON.stringify(record)));
      // 178 random bits: a clash means the generator is broken, not bad luck
      if (added !== 1) throw new Error(`A key with prefix ${record.prefix} exists already in Redis.`);
      return { key, record };
    },
    async revoke(hash) {
      await ask(() => redis.revokeKey(KEYS_HASH, hash, clock.now().toISOString()));
      trusted.delete(hash);
    },
    list: () => listed,
    quotaKey: keyQuotaKey,
    async refresh() {
      const all = await ask(() => redis.hvals(KEYS_HASH));
      listed = all.map((text) => JSON.parse(text) as KeyRecord).sort(byCreated);
    },
    async close() {
      redis.disconnect();
    },
  };
}

function notPersistent(url: string): ConfigError {
  return new ConfigError(
    `Redis at ${redactedUrl(url)} keeps the API keys only in memory (no append-only file): a restart would lose every key users were given.`,
    "Turn on its append-only file (appendonly yes in redis.conf, or CONFIG SET appendonly yes then CONFIG REWRITE) and start again; a single shim may keep keys in the state folder instead (PROJINTEL_QUOTA__STORE=embedded).",
  );
}

function secretMismatch(url: string): ConfigError {
  return new ConfigError(
    `This shim's server secret differs from the one the other shims sharing ${redactedUrl(url)} use, so their API keys and quota counts would not match.`,
    `Set the same PROJINTEL_SERVER_SECRET (32+ characters) on every shim and on \`projintel keys\`; after rotating the secret everywhere, delete the Redis key ${SECRET_FINGERPRINT_KEY}.`,
  );
}
