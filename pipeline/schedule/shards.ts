// Which collection shard owns what: `--shard i/n` (1-based) collects a stable 1/n of the tracked repositories, of the
// discovery search terms and of the seed names. Ownership is a hash of a stable key (a repository's lower-cased owner,
// a term, a lower-cased seed name), never a position in a list, so adding repositories moves none between shards.
// Repositories go by owner, not node id, because the Hugging Face Hub is looked up per owner (every model of the
// owner, matched to any of its repositories): an owner split over shards would be looked up by each with part of its
// repositories. The hash is not the tiers' phase hash (phaseOf), which would tie a shard to a warm-tier phase.
import { createHash } from "node:crypto";
import { ConfigError } from "../../core/errors.ts";
import type { RefreshPlan } from "./tiers.ts";

/** Most shards a night may be split into (a GitHub Actions matrix of this many jobs stays manageable). */
export const MAX_SHARDS = 64;

/** One shard of a night: `index` of `count`, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

const SHARD_HINT = `Write it as i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. --shard 2/3 (the second of three shards).`;

/** Parses a shard count, 1 to MAX_SHARDS; `flag` names the option in the message. */
export function parseShardCount(text: string, flag = "--shards"): number {
  const count = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) {
    throw new ConfigError(
      `${flag} must be a whole number from 1 to ${MAX_SHARDS}, got "${text}".`,
      `Pass the number of shards the night was collected as, e.g. ${flag} 3.`,
    );
  }
  return count;
}

/** Parses `i/n` (e.g. "2/3"); refuses anything else with a message naming what is wrong. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ConfigError(`--shard must be i/n, got "${text}".`, SHARD_HINT);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS)
    throw new ConfigError(`--shard ${text}: the shard count must be 1 to ${MAX_SHARDS}.`, SHARD_HINT);
  if (index < 1 || index > count)
    throw new ConfigError(
      `--shard ${text}: the shard number must be 1 to ${count} (shards are 1-based).`,
      SHARD_HINT,
    );
  return { index, count };
}

/** The shard's name in storage keys and reports: "2-of-3". */
export const shardLabel = (shard: Shard) => `${shard.index}-of-${shard.count}`;

/** Every shard of a night of `count` shards, in order. */
export const allShards = (count: number): Shard[] =>
  Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));

/** The shard (1-based) that owns `key` among `count`: the first 32 bits of its SHA-256, modulo `count`. */
export function shardOf(key: string, count: number): number {
  return (createHash("sha256").update(key).digest().readUInt32BE(0) % count) + 1;
}

/** Whether `shard` owns `key`; everything is owned when there is no shard (an unsharded run). */
export const owns = (shard: Shard | undefined, key: string) =>
  shard === undefined || shardOf(key, shard.count) === shard.index;

/** The key a repository is sharded by: its owner, lower-cased (GitHub owner names are case-insensitive). */
export const repositoryKey = (fullName: string) => (fullName.split("/")[0] ?? "").toLowerCase();

/** Whether `shard` owns the repository `fullName` (owner/name as last seen). */
export const ownsRepository = (shard: Shard | undefined, fullName: string) =>
  owns(shard, repositoryKey(fullName));

/**
 * Tonight's refresh plan of one shard. The plan is made over every tracked repository first, so the tiers rank by
 * stars among all of them (as an unsharded night does); then the shard keeps the tracked repositories it owns, and
 * every repository its own discovery found that nobody tracks yet: no other shard knows of those. A new repository
 * found by the terms of several shards is fetched by each, and the merge keeps one row (pipeline/shards.ts).
 */
export function shardPlan(
  plan: RefreshPlan,
  /** Node id → owner/name of every tracked repository, as last seen. */
  tracked: ReadonlyMap<string, string>,
  shard: Shard | undefined,
): RefreshPlan {
  if (!shard) return plan;
  const keep = (id: string) => {
    const name = tracked.get(id);
    return name === undefined || ownsRepository(shard, name);
  };
  return { ...plan, full: plan.full.filter(keep), light: plan.light.filter(keep) };
}
