// The Redis quota store, for several shims sharing one count: counting is one atomic Lua script (INCRBY, and on the
// day's first request PEXPIREAT the next midnight UTC), so it is exact across processes. Requests of one caller that
// arrive in the same event-loop turn share one script call (INCRBY n; each gets its own count from the total): under
// load that saves most round trips. A Redis that is down or slow makes hit() reject with QuotaUnavailableError
// within commandTimeoutMs: the request gets 503.
import type { Redis } from "ioredis";
import { isoDay, nextUtcMidnight } from "../../core/clock.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import { createKeyHasher, type QuotaHit, type QuotaStore, quotaHit } from "./quota.ts";
import { connectRedis, redisUnavailable } from "./redis-client.ts";

export interface RedisQuotaOptions {
  /** redis://[user:password@]host:port[/db] (config.redis.url). */
  url: string;
  /** Longest wait for one command (config.redis.commandTimeoutMs). */
  commandTimeoutMs: number;
  /** Server secret: quota keys are stored as its HMACs. */
  secret: string;
  logger?: Logger;
}

/** Where counters live in Redis: one key per caller and UTC day. */
const KEY_SPACE = "projintel:quota";

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

/**
 * A file read: counted unless the caller paid for the item today (a set per caller and day); paid for only when
 * the count is within the limit. Returns the count and 1 when this request was counted.
 */
const HIT_ONCE_SCRIPT = `
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 1 then
  return {tonumber(redis.call('GET', KEYS[1]) or '0'), 0}
end
local count = redis.call('INCRBY', KEYS[1], 1)
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
if count <= tonumber(ARGV[3]) then
  redis.call('SADD', KEYS[2], ARGV[2])
  redis.call('PEXPIREAT', KEYS[2], ARGV[1])
end
return {count, 1}`;

type ScriptedRedis = Redis & {
  quotaHit(key: string, expireAt: number, by: number): Promise<number>;
  quotaHitOnce(
    key: string,
    paidKey: string,
    expireAt: number,
    item: string,
    limit: number,
  ): Promise<[number, number]>;
};

/** Hits of one Redis key waiting for this turn's script call. */
interface Batch {
  limit: number[];
  resolve: ((hit: QuotaHit) => void)[];
  reject: ((error: unknown) => void)[];
  resetAt: Date;
}

export async function openRedisQuotaStore(options: RedisQuotaOptions): Promise<QuotaStore> {
  const logger = options.logger ?? silentLogger;
  const stored = createKeyHasher(options.secret);
  const redis = (await connectRedis({
    url: options.url,
    commandTimeoutMs: options.commandTimeoutMs,
    logger,
    purpose: "quota store",
  })) as ScriptedRedis;
  redis.defineCommand("quotaHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.defineCommand("quotaHitOnce", { numberOfKeys: 2, lua: HIT_ONCE_SCRIPT });
  const unavailable = (error: unknown) => redisUnavailable(options.url, error);
  const keyOf = (key: string, now: Date) => `${KEY_SPACE}:${isoDay(now)}:${stored(key)}`;

  let batches = new Map<string, Batch>();
  const send = () => {
    const sending = batches;
    batches = new Map();
    for (const [redisKey, batch] of sending) {
      const n = batch.resolve.length;
      redis.quotaHit(redisKey, batch.resetAt.getTime(), n).then(
        (total) => {
          // The batch's requests hold counts total-n+1 … total, in arrival order.
          for (let i = 0; i < n; i++)
            batch.resolve[i]?.(quotaHit(batch.limit[i] ?? 0, total - n + 1 + i, batch.resetAt));
        },
        (error: unknown) => {
          for (const reject of batch.reject) reject(unavailable(error));
        },
      );
    }
  };

  return {
    hit(key, limit, now): Promise<QuotaHit> {
      const redisKey = keyOf(key, now);
      return new Promise((resolve, reject) => {
        let batch = batches.get(redisKey);
        if (!batch) {
          if (batches.size === 0) setImmediate(send);
          batch = { limit: [], resolve: [], reject: [], resetAt: nextUtcMidnight(now) };
          batches.set(redisKey, batch);
        }
        batch.limit.push(limit);
        batch.resolve.push(resolve);
        batch.reject.push(reject);
      });
    },
    hitOnce(key, item, limit, now): Promise<QuotaHit> {
      const counter = keyOf(key, now);
      const resetAt = nextUtcMidnight(now);
      return redis.quotaHitOnce(counter, `${counter}:paid`, resetAt.getTime(), item, limit).then(
        ([count, counted]) =>
          counted === 1
            ? quotaHit(limit, count, resetAt)
            : { ...quotaHit(limit, count, resetAt), paid: true },
        (error: unknown) => {
          throw unavailable(error);
        },
      );
    },
    peek(key, limit, now): Promise<QuotaHit> {
      const resetAt = nextUtcMidnight(now);
      return redis.get(keyOf(key, now)).then(
        (count) => quotaHit(limit, Number(count ?? 0), resetAt),
        (error: unknown) => {
          throw unavailable(error);
        },
      );
    },
    async close() {
      redis.disconnect();
    },
  };
}
