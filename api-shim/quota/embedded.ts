// The embedded quota store: counts in memory — exact under concurrency, since one Node process increments
// synchronously — and appends the counts that changed to a JSON-lines log every `flushMs`, fsynced, so a kill -9
// loses at most that last interval. It owns its state folder through a lock file (quota-lock.ts).
import { open } from "node:fs/promises";
import { isoDay, nextUtcMidnight } from "../../core/clock.ts";
import { readTextIfExists, writeFileAtomic } from "../../core/files.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import { acquireLock, type HeldLock } from "./lock.ts";
import type { QuotaHit, QuotaStore } from "./quota.ts";
import { createKeyHasher, quotaHit } from "./quota.ts";

export interface EmbeddedQuotaStore extends QuotaStore {
  /** Writes the changed counters now (normally every flushMs). */
  flush(): Promise<void>;
}

export interface EmbeddedQuotaOptions {
  /** Where counters persist (statePaths(config).quotas); none keeps them in memory only. */
  file?: string;
  /** The lock making this store the folder's only owner (statePaths(config).quotaLock); none takes no lock. */
  lockFile?: string;
  /** Server secret: quota keys are stored as its HMACs. Without one (memory-only tests) keys are kept as given. */
  secret?: string;
  /** Longest a counted request waits before it is written: what a kill -9 can lose. */
  flushMs?: number;
  logger?: Logger;
}

/**
 * One log line: the day, the counts (totals, not increments) of the keys that changed, and the files paid for since
 * the last line ("<stored key> <item>").
 */
interface Line {
  day: string;
  counts: Record<string, number>;
  paid?: string[];
}

/** The log is rewritten as one line once appends pass this many bytes and four times the last rewrite. */
const MIN_COMPACT_BYTES = 1 << 20;

export async function openEmbeddedQuotaStore(
  options: EmbeddedQuotaOptions = {},
): Promise<EmbeddedQuotaStore> {
  const { file } = options;
  const flushMs = options.flushMs ?? 1000;
  const logger = options.logger ?? silentLogger;
  const stored = createKeyHasher(options.secret);
  const lock: HeldLock | undefined = options.lockFile
    ? await acquireLock(options.lockFile, "The embedded quota store's state folder")
    : undefined;
  const saved = file ? await readQuotaLog(file, logger) : undefined;
  let day = saved?.day ?? "";
  let counts = new Map<string, number>(Object.entries(saved?.counts ?? {}));
  let paid = new Set<string>(saved?.paid ?? []);
  let newlyPaid: string[] = [];
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  // Rewrite (rather than append) on the first write, after a new day, and when the log has grown.
  let rewrite = true;
  let appended = 0;
  let compactAt = MIN_COMPACT_BYTES;

  async function write(line: Line, whole: boolean): Promise<void> {
    if (!file) return;
    const text = `${JSON.stringify(line)}\n`;
    if (whole) {
      await writeFileAtomic(file, text);
      appended = 0;
      compactAt = Math.max(MIN_COMPACT_BYTES, 4 * text.length);
      return;
    }
    const handle = await open(file, "a");
    try {
      await handle.write(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    appended += text.length;
  }

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!file || (changed.size === 0 && !rewrite)) return writing;
    const whole = rewrite || appended >= compactAt;
    const keys = whole ? [...counts.keys()] : [...changed];
    const line: Line = { day, counts: Object.fromEntries(keys.sort().map((k) => [k, counts.get(k) ?? 0])) };
    const items = whole ? [...paid] : newlyPaid;
    if (items.length > 0) line.paid = items.sort();
    newlyPaid = [];
    changed.clear();
    rewrite = false;
    // Writes are chained so an older line can never land after a newer one.
    writing = writing.then(() =>
      write(line, whole).catch((error: unknown) => {
        rewrite = true;
        logger.error("could not persist quota counters", { file, error: String(error) });
      }),
    );
    return writing;
  };

  // The current day's bounds, so most hits compare two numbers instead of formatting a date.
  let dayStart = 0;
  let dayEnd = 0;
  let resetAt = new Date(0);
  const enterDay = (now: Date) => {
    const time = now.getTime();
    if (time < dayEnd && time >= dayStart) return;
    const today = isoDay(now);
    // Only a later day resets: a request stamped a little in the past still counts against today.
    if (today > day) {
      day = today;
      counts = new Map();
      paid = new Set();
      newlyPaid = [];
      changed.clear();
      rewrite = true;
    }
    dayStart = Date.parse(`${day}T00:00:00Z`);
    resetAt = nextUtcMidnight(new Date(dayStart));
    dayEnd = resetAt.getTime();
  };

  function count(id: string): number {
    const next = (counts.get(id) ?? 0) + 1;
    counts.set(id, next);
    changed.add(id);
    if (file && !timer) {
      timer = setTimeout(() => void flush(), flushMs);
      timer.unref();
    }
    return next;
  }

  return {
    hit(key, limit, now): QuotaHit {
      enterDay(now);
      return quotaHit(limit, count(stored(key)), resetAt);
    },
    hitOnce(key, item, limit, now): QuotaHit {
      enterDay(now);
      const id = stored(key);
      const entry = `${id} ${item}`;
      if (paid.has(entry)) return { ...quotaHit(limit, counts.get(id) ?? 0, resetAt), paid: true };
      const counted = count(id);
      if (counted <= limit) {
        paid.add(entry);
        newlyPaid.push(entry);
      }
      return quotaHit(limit, counted, resetAt);
    },
    peek(key, limit, now): QuotaHit {
      enterDay(now);
      return quotaHit(limit, counts.get(stored(key)) ?? 0, resetAt);
    },
    flush,
    async close() {
      await flush();
      await lock?.release();
    },
  };
}

/** The latest day's counts from the log; a line cut by a crash (the last one) is skipped. Read-only: takes no lock. */
export async function readQuotaLog(file: string, logger: Logger = silentLogger): Promise<Line | undefined> {
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  let latest: Line | undefined;
  let unreadable = 0;
  for (const raw of text.split("\n")) {
    if (!raw) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
      if (typeof line.day !== "string" || typeof line.counts !== "object" || !line.counts) throw new Error();
    } catch {
      unreadable++;
      continue;
    }
    if (!latest || line.day > latest.day) latest = { day: line.day, counts: {}, paid: [] };
    if (line.day === latest.day) {
      Object.assign(latest.counts, line.counts);
      if (Array.isArray(line.paid)) latest.paid?.push(...line.paid);
    }
  }
  // Losing counters only grants callers a fresh quota; refusing to start would take the API down.
  if (unreadable > 0)
    logger.warn("quota file has unreadable lines; they are skipped", { file, lines: unreadable });
  return latest;
}
