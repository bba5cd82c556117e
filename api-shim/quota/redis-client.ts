// The shim's Redis connections (the quota store and the key store), made one way: commands fail fast instead of
// queueing while Redis is down (the request gets 503, never waits), reconnection keeps trying, and one log line
// is written per outage. A Redis unreachable at start is not fatal: the store answers as soon as it is reachable.
import { Redis } from "ioredis";
import type { Logger } from "../../core/log.ts";
import { QuotaUnavailableError } from "./quota.ts";

export interface RedisOptions {
  /** redis://[user:password@]host:port[/db] (config.redis.url). */
  url: string;
  /** Longest wait for one command (config.redis.commandTimeoutMs). */
  commandTimeoutMs: number;
  logger: Logger;
  /** What the connection is for, in log lines ("quota store", "key store"). */
  purpose: string;
}

/** Longest pause between reconnection attempts while Redis is down. */
const MAX_RECONNECT_DELAY_MS = 1000;

export async function connectRedis(options: RedisOptions): Promise<Redis> {
  const { logger, purpose } = options;
  const where = redactedUrl(options.url);
  const redis = new Redis(options.url, {
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(options.commandTimeoutMs, 1000),
    // No queueing while disconnected and no retries of a command: a request is answered (503) instead of waiting.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Commands of different callers issued in one turn go out in one write.
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    lazyConnect: true,
  });
  let reported = false;
  redis.on("error", (error: Error) => {
    // ioredis reports every failed reconnection; one line per outage is enough.
    if (!reported) logger.error(`redis ${purpose} unreachable`, { redis: where, error: error.message });
    reported = true;
  });
  redis.on("ready", () => {
    if (reported) logger.info(`redis ${purpose} reachable again`, { redis: where });
    reported = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    // Starting anyway: requests get 503 until Redis answers, and the shim serves as soon as it does.
    logger.warn(`redis ${purpose} not reachable at start; requests get 503 until it is`, {
      redis: where,
      error: (error as Error).message,
    });
  }
  return redis;
}

/** A failed Redis command as the error every route answers with 503 (QuotaUnavailableError). */
export function redisUnavailable(url: string, error: unknown): QuotaUnavailableError {
  return new QuotaUnavailableError(
    `The Redis server at ${redactedUrl(url)} did not answer: ${(error as Error).message}`,
    {
      cause: error,
    },
  );
}

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}
