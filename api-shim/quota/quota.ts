// Daily request quotas behind one seam, QuotaStore, with two stores: embedded (quota-embedded.ts, the default: one
// shim owns its state folder) and Redis (quota-redis.ts, for several shims). Both keep caller identities (client
// addresses, key hashes) only as HMACs under the server secret, never in the clear.
import { keyedHash } from "../keys/secret.ts";

export { openEmbeddedQuotaStore } from "./embedded.ts";

export interface QuotaHit {
  limit: number;
  /** Requests counted today for the key, this one included (for peek: counted so far). */
  count: number;
  remaining: number;
  /** Next midnight UTC, when the count starts again (shared between hits: do not mutate). */
  resetAt: Date;
  /** hitOnce: the item was already paid for today, so this request was not counted and is served whatever the count. */
  paid?: true;
}

export interface QuotaStore {
  /** Counts one request for `key` on `now`'s UTC day, atomically, and says where the key stands. */
  hit(key: string, limit: number, now: Date): QuotaHit | Promise<QuotaHit>;
  /**
   * Counts one request for `key` unless `item` (a file) was already paid for by `key` today: one request per file
   * per caller per day, however many ranged GETs and HEADs its reader sends. A request over the quota is counted
   * (and refused) without paying for the item. Atomic like hit.
   */
  hitOnce(key: string, item: string, limit: number, now: Date): QuotaHit | Promise<QuotaHit>;
  /** Where `key` stands without counting a request (refused keys' 401s show the caller's quota this way). */
  peek(key: string, limit: number, now: Date): QuotaHit | Promise<QuotaHit>;
  /** Persists what is pending and stops timers. */
  close(): Promise<void>;
}

/** The store cannot count right now (Redis unreachable or too slow): the request is refused with 503. */
export class QuotaUnavailableError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = "QuotaUnavailableError";
  }
}

/** Distinct identities whose HMAC is remembered; past it the memo starts again (a bound, not a tuning knob). */
const MAX_MEMO = 65_536;

/**
 * The stored form of a quota key: its HMAC under the secret (hex), memoised since the same few callers make most
 * requests. Without a secret (memory-only test stores) the key is kept as it is.
 */
export function createKeyHasher(secret: string | undefined): (key: string) => string {
  if (!secret) return (key) => key;
  const memo = new Map<string, string>();
  return (key) => {
    let hashed = memo.get(key);
    if (hashed === undefined) {
      if (memo.size >= MAX_MEMO) memo.clear();
      hashed = keyedHash(secret, `quota:${key}`);
      memo.set(key, hashed);
    }
    return hashed;
  };
}

/** A hit's fields from a count (shared by the stores). */
export function quotaHit(limit: number, count: number, resetAt: Date): QuotaHit {
  return { limit, count, remaining: Math.max(0, limit - count), resetAt };
}
