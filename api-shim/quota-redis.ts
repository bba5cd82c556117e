// The Redis quota store, for several shims sharing one count: counting is one atomic Lua script (INCRBY, and on the
// day's first request PEXPIREAT the next midnight UTC), so it is exact across processes. Requests of one caller that
// arrive in the same event-loop turn share one script call (INCRBY n; each gets its own count from the total): under
// load that saves most round trips. A Redis that is down or slow makes hit() reject with QuotaUnavailableError
// within commandTimeoutMs: the request gets 503.
import { Redis } from "ioredis";
import { isoDay, nextUtcMidnight } from "../core/clock.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { createKeyHasher, type QuotaHit, type QuotaStore, QuotaUnavailableError, quotaHit } from "./quota.ts";

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
/** Longest pause between reconnection attempts while Redis is down. */
const MAX_RECONNECT_DELAY_MS = 1000;

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

type ScriptedRedis = Redis & { quotaHit(key: string, expireAt: number, by: number): Promise<number> };

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
  const where = redactedUrl(options.url);
  const redis = new Redis(options.url, {
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(options.commandTimeoutMs, 1000),
    // No queueing while disconnected and no retries of a command: a request is answered (503) instead of waiting.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Script calls of different callers issued in one turn go out in one write.
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    lazyConnect: true,
  }) as ScriptedRedis;
  redis.defineCommand("quotaHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  let reported = false;
  redis.on("error", (error: Error) => {
    // ioredis reports every failed reconnection; one line per outage is enough.
    if (!reported) logger.error("redis quota store unreachable", { redis: where, error: error.message });
    reported = true;
  });
  redis.on("ready", () => {
    if (reported) logger.info("redis quota store reachable again", { redis: where });
    reported = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    // Starting anyway: requests get 503 until Redis answers, and the shim serves as soon as it does.
    logger.warn("redis quota store not reachable at start; requests get 503 until it is", {
      redis: where,
      error: (error as Error).message,
    });
  }

  const unavailable = (error: unknown) =>
    new QuotaUnavailableError(
      `The Redis quota store at ${where} did not answer: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
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

/** The URL without its password, for messages and logs. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}
