// Daily request quotas. QuotaStore is the seam (Redis comes later, for several shim instances); the
// embedded store counts in memory — exact under concurrency, since one Node process increments
// synchronously — and persists the counters to a JSON file (debounced, and on close) to survive restarts.
import { readFile } from "node:fs/promises";
import { isoDay, nextUtcMidnight } from "../core/clock.ts";
import { writeFileAtomic } from "../core/files.ts";
import { type Logger, silentLogger } from "../core/log.ts";

export interface QuotaHit {
  limit: number;
  /** Requests counted today for the key, this one included. */
  count: number;
  remaining: number;
  /** Next midnight UTC, when the count starts again (shared between hits: do not mutate). */
  resetAt: Date;
}

export interface QuotaStore {
  /** Counts one request for `key` on `now`'s UTC day, atomically, and says where the key stands. */
  hit(key: string, limit: number, now: Date): QuotaHit | Promise<QuotaHit>;
  /** Persists what is pending and stops timers. */
  close(): Promise<void>;
}

export interface EmbeddedQuotaStore extends QuotaStore {
  /** Writes the counters now (normally debounced). */
  flush(): Promise<void>;
}

export interface EmbeddedQuotaOptions {
  /** Where counters persist (statePaths(config).quotas); none keeps them in memory only. */
  file?: string;
  /** Longest a counted request waits before it is written to the file. */
  debounceMs?: number;
  logger?: Logger;
}

interface Saved {
  format: 1;
  day: string;
  counts: Record<string, number>;
}

export async function openEmbeddedQuotaStore(
  options: EmbeddedQuotaOptions = {},
): Promise<EmbeddedQuotaStore> {
  const { file } = options;
  const debounceMs = options.debounceMs ?? 1000;
  const logger = options.logger ?? silentLogger;
  const saved = file ? await load(file, logger) : undefined;
  let day = saved?.day ?? "";
  let counts = new Map<string, number>(Object.entries(saved?.counts ?? {}));
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!file || !dirty) return writing;
    dirty = false;
    const snapshot: Saved = { format: 1, day, counts: Object.fromEntries([...counts].sort(byKey)) };
    // Writes are chained so an older snapshot can never land after a newer one.
    writing = writing.then(() =>
      writeFileAtomic(file, `${JSON.stringify(snapshot)}\n`).catch((error: unknown) => {
        dirty = true;
        logger.error("could not persist quota counters", { file, error: String(error) });
      }),
    );
    return writing;
  };

  // The current day's bounds, so most hits compare two numbers instead of formatting a date.
  let dayStart = 0;
  let dayEnd = 0;
  let resetAt = new Date(0);

  return {
    hit(key, limit, now) {
      const time = now.getTime();
      if (time >= dayEnd || time < dayStart) {
        const today = isoDay(now);
        // Only a later day resets: a request stamped a little in the past still counts against today.
        if (today > day) {
          day = today;
          counts = new Map();
        }
        dayStart = Date.parse(`${day}T00:00:00Z`);
        resetAt = nextUtcMidnight(new Date(dayStart));
        dayEnd = resetAt.getTime();
      }
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      dirty = true;
      if (file && !timer) {
        timer = setTimeout(() => void flush(), debounceMs);
        timer.unref();
      }
      return { limit, count, remaining: Math.max(0, limit - count), resetAt };
    },
    flush,
    close: flush,
  };
}

const byKey = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

async function load(file: string, logger: Logger): Promise<Saved | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const saved = JSON.parse(text) as Saved;
    if (saved.format === 1 && typeof saved.day === "string" && typeof saved.counts === "object") return saved;
  } catch {
    // fall through: recorded below
  }
  // Losing today's counters only grants callers a fresh quota; refusing to start would take the API down.
  logger.warn("quota file is unreadable; starting with empty counters", { file });
  return undefined;
}
