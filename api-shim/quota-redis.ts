// The Redis quota store, for several shims sharing one count: each request is one atomic Lua script (INCR, and on
// the day's first request PEXPIREAT the next midnight UTC), so counting is exact across processes. A Redis that is
// down or slow makes hit() reject with QuotaUnavailableError within commandTimeoutMs: the request gets 503.
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
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

type ScriptedRedis = Redis & { quotaHit(key: string, expireAt: number): Promise<number> };

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

  const unavailable = (error: unknown) => {
    throw new QuotaUnavailableError(
      `The Redis quota store at ${where} did not answer: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  };
  const keyOf = (key: string, now: Date) => `${KEY_SPACE}:${isoDay(now)}:${stored(key)}`;

  return {
    hit(key, limit, now): Promise<QuotaHit> {
      const resetAt = nextUtcMidnight(now);
      return redis
        .quotaHit(keyOf(key, now), resetAt.getTime())
        .then((count) => quotaHit(limit, Number(count), resetAt), unavailable);
    },
    peek(key, limit, now): Promise<QuotaHit> {
      const resetAt = nextUtcMidnight(now);
      return redis
        .get(keyOf(key, now))
        .then((count) => quotaHit(limit, Number(count ?? 0), resetAt), unavailable);
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
