// Today's request counts of keys, for operators (`projintel keys`): read from the embedded store's log without its
// lock (a running shim keeps it), or peeked in Redis. Counts are at most a second behind a running embedded shim.
import { isoDay } from "../../core/clock.ts";
import { type Config, statePaths } from "../../core/config.ts";
import { readQuotaLog } from "../quota/embedded.ts";
import { createKeyHasher } from "../quota/quota.ts";
import { openRedisQuotaStore } from "../quota/redis.ts";
import { type KeyRecord, keyQuotaKey } from "./store.ts";

/** Today's count by key hash; a key missing from the result could not be read (Redis unreachable). */
export async function todayCounts(
  config: Config,
  secret: string,
  records: readonly KeyRecord[],
  now: Date,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (config.quota.store === "redis") {
    const store = await openRedisQuotaStore({
      url: config.redis.url,
      commandTimeoutMs: config.redis.commandTimeoutMs,
      secret,
    });
    try {
      for (const record of records) {
        const hit = await Promise.resolve(store.peek(keyQuotaKey(record), 1, now)).catch(() => undefined);
        if (hit) counts.set(record.hash, hit.count);
      }
    } finally {
      await store.close();
    }
    return counts;
  }
  const log = await readQuotaLog(statePaths(config).quotas);
  const stored = createKeyHasher(secret);
  const today = log?.day === isoDay(now) ? log.counts : {};
  for (const record of records) counts.set(record.hash, today[stored(keyQuotaKey(record))] ?? 0);
  return counts;
}
