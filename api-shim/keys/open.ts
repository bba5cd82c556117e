// The key store config.quota.store implies: keys.jsonl in the state folder for one shim (embedded), or Redis when
// several shims share their counts — a key created at one must be known at every other. Used by the shim and by
// `projintel keys`.
import type { Clock } from "../../core/clock.ts";
import { type Config, statePaths } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import { type KeyStore, openKeyStore } from "./store.ts";
import { openRedisKeyStore } from "./store-redis.ts";

export function openConfiguredKeyStore(
  config: Pick<Config, "quota" | "redis" | "stateDir">,
  options: { secret: string; clock: Clock; logger?: Logger; claimSecret?: boolean },
): Promise<KeyStore> {
  const limits = { free: config.quota.free, email: config.quota.email };
  const { claimSecret, ...common } = { ...options, limits };
  if (config.quota.store === "redis") {
    return openRedisKeyStore({
      url: config.redis.url,
      commandTimeoutMs: config.redis.commandTimeoutMs,
      ...common,
      ...(claimSecret === undefined ? {} : { claimSecret }),
    });
  }
  return openKeyStore({ file: statePaths(config).keys, ...common });
}
