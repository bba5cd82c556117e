// The durable key store: a JSON-lines log under the state folder (keys.jsonl), appended and fsynced before a new
// key is returned, held in memory by HMAC for lookups. It never holds a key or an e-mail address: only the key's
// HMAC, its display prefix, its plan and (for e-mail keys) an HMAC of the address. Other processes' appends (the
// CLI's revocations, another shim's keys) are read back at most `refreshMs` later.
import { timingSafeEqual } from "node:crypto";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import type { Clock } from "../../core/clock.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import type { Caller, KeyVerifier } from "../caller.ts";
import { displayPrefix, generateKey } from "./keys.ts";
import { keyedHash } from "./secret.ts";

/** free: created without an e-mail address; email: with one (the higher quota). */
export type KeyPlan = "free" | "email";

export interface KeyRecord {
  /** HMAC-SHA-256 of the key under the server secret, hex. */
  hash: string;
  prefix: string;
  plan: KeyPlan;
  created: string;
  revoked?: string;
  /** HMAC of the lower-cased e-mail address, so an operator can find an address's keys without storing it. */
  contact?: string;
}

type Line = ({ op: "create" } & KeyRecord) | { op: "revoke"; hash: string; at: string };

export interface KeyStoreOptions {
  file: string;
  secret: string;
  /** Daily quota of each plan (config.quota.free and .email). */
  limits: Record<KeyPlan, number>;
  clock: Clock;
  /** How often other processes' appends are looked for (default 1000 ms); 0 checks on every lookup. */
  refreshMs?: number;
  logger?: Logger;
}

export interface KeyStore extends KeyVerifier {
  /** Makes a key, writes its record durably, and returns the key (its only appearance) and record. */
  create(plan: KeyPlan, email?: string): Promise<{ key: string; record: KeyRecord }>;
  /** Marks a key revoked, durably; from then on it gets 401. */
  revoke(hash: string): Promise<void>;
  /** Every key, oldest first (the Redis store's: as of the last refresh()). */
  list(): KeyRecord[];
  /** The quota key a key's requests count against (what verify returns as quotaKey). */
  quotaKey(record: KeyRecord): string;
  /** Reads what other processes appended (the Redis store: every key, for list()). */
  refresh(): Promise<void>;
  /** Lets go of the store's connection (the Redis store); nothing to do for the file. */
  close(): Promise<void>;
}

/** Keys whose verification is remembered (a bound, not a tuning knob). */
const MAX_REMEMBERED_KEYS = 4096;

export async function openKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  const { file, secret, limits, clock } = options;
  const refreshMs = options.refreshMs ?? 1000;
  const logger = options.logger ?? silentLogger;
  const byHash = new Map<string, KeyRecord>();
  let offset = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | undefined;

  const apply = (line: Line) => {
    if (line.op === "create") {
      const { op: _op, ...record } = line;
      if (!byHash.has(record.hash)) byHash.set(record.hash, record);
    } else {
      const record = byHash.get(line.hash);
      if (record && !record.revoked) record.revoked = line.at;
    }
  };

  async function readFrom(start: number): Promise<void> {
    let text: string;
    try {
      const handle = await open(file, "r");
      try {
        const { size } = await handle.stat();
        if (size <= start) return;
        const buffer = Buffer.alloc(size - start);
        await handle.read(buffer, 0, buffer.length, start);
        text = buffer.toString("utf8");
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    // A line without its newline is still being written (or was cut by a crash): read it next time.
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    for (const [index, raw] of complete.split("\n").entries()) {
      if (!raw) continue;
      try {
        apply(JSON.parse(raw) as Line);
      } catch {
        logger.warn("key store line is unreadable; skipped", { file, line_offset: start, line: index });
      }
    }
    offset = start + Buffer.byteLength(complete);
  }

  const refresh = (): Promise<void> => {
    refreshing ??= readFrom(offset).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  async function append(line: Line): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const handle = await open(file, "a", 0o600);
    try {
      await handle.write(`${JSON.stringify(line)}\n`);
      // Durable before the key is handed out: a kill -9 (or power loss) right after must not lose it.
      await handle.sync();
    } finally {
      await handle.close();
    }
    apply(line);
  }

  await readFrom(0);
  const quotaKey = keyQuotaKey;
  // A key in use, once its HMAC was computed and compared with its record's in constant time: the record and the
  // caller it stands for, so a heavy caller's requests (served by the fast path) do not each compute and compare them
  // again. The record is the store's own object, which a revocation marks in place: that is looked up on every
  // request. Dropped whole when full.
  const verified = new Map<string, { record: KeyRecord; caller: Caller }>();
  const verifyOnce = (token: string): { record: KeyRecord; caller: Caller } | undefined => {
    const hex = keyedHash(secret, token);
    const record = byHash.get(hex);
    // The map found it by hash; the stored hash is still compared in constant time, as the design asks.
    if (!record || !timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(hex, "hex")))
      return undefined;
    if (verified.size >= MAX_REMEMBERED_KEYS) verified.clear();
    const entry = { record, caller: { quotaKey: quotaKey(record), limit: limits[record.plan] } };
    verified.set(token, entry);
    return entry;
  };

  return {
    verify(token: string): Caller | undefined {
      // a monotonic clock for the refresh's interval: a request need not make a Date
      const now = performance.now();
      if (now - checkedAt >= refreshMs) {
        checkedAt = now;
        void refresh().catch((error: unknown) =>
          logger.error("could not read the key store", { file, error: String(error) }),
        );
      }
      const entry = verified.get(token) ?? verifyOnce(token);
      return entry === undefined || entry.record.revoked ? undefined : entry.caller;
    },
    async create(plan, email) {
      const { key, record } = newKey(secret, plan, email, clock);
      await append({ op: "create", ...record });
      return { key, record };
    },
    async revoke(hash) {
      await append({ op: "revoke", hash, at: clock.now().toISOString() });
    },
    list: () => [...byHash.values()].sort(byCreated),
    quotaKey,
    refresh,
    close: async () => {},
  };
}

/** The quota key a key's requests count against: its HMAC, so no store ever holds the key. */
/** A new key and the record a store keeps of it: its HMAC, display prefix, plan, and the e-mail only as an HMAC. */
export function newKey(
  secret: string,
  plan: KeyPlan,
  email: string | undefined,
  clock: Clock,
): { key: string; record: KeyRecord } {
  const key = generateKey();
  const record: KeyRecord = {
    hash: keyedHash(secret, key),
    prefix: displayPrefix(key),
    plan,
    created: clock.now().toISOString(),
    ...(email ? { contact: keyedHash(secret, `email:${email.toLowerCase()}`) } : {}),
  };
  return { key, record };
}

export function keyQuotaKey(record: Pick<KeyRecord, "hash">): string {
  return `key:${record.hash}`;
}

/** Oldest key first. */
export function byCreated(a: KeyRecord, b: KeyRecord): number {
  return a.created < b.created ? -1 : a.created > b.created ? 1 : 0;
}
