// One publisher per prefix: a publish holds releases/publish.lock.json (owner, start, expiry) from its first write to
// its last. The lock is created with a conditional write (If-None-Match: *) where the store honours it; where it
// does not (s3rver ignores the header), the publisher waits at least `settleMs` (config.publish.lockSettleMs, 2 s) and
// reads the lock back, and only the last writer — the one every contender reads back — goes on. A lock whose publisher was killed is taken over
// after its expiry, or at once when its publisher ran on this machine and its process is gone.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../core/clock.ts";
import { AppError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Storage } from "../core/storage.ts";

export const LOCK_KEY = "releases/publish.lock.json";
/** How long a lock holds without its publisher: far beyond a publish (35 s for 220,000 repositories on s3rver). */
export const LOCK_TTL_MS = 60 * 60 * 1000;
/** Reads of a lock that does not parse before it is taken for someone else's object (a write seen half done). */
const TORN_READ_ATTEMPTS = 10;
const TORN_READ_PAUSE_MS = 100;

export interface LockRecord {
  owner: string;
  host: string;
  pid: number;
  token: string;
  started_at: string;
  expires_at: string;
}

export interface PublishLock {
  record: LockRecord;
  /** conditional: the store refused a second create (If-None-Match honoured); read-back: verified by waiting. */
  mode: "conditional" | "read-back";
  /** Throws unless the lock is still this publisher's (before the pointer is flipped). */
  confirm(): Promise<void>;
  /** Removes the lock if it is still this publisher's. */
  release(): Promise<void>;
}

export interface LockOptions {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /**
   * Least wait before the read-back on a store without conditional writes (config.publish.lockSettleMs). Exclusion
   * holds when the wait outlasts every contender's span from its check to its last lock write; on a loaded machine
   * the spans grow, so a publisher waits twice its own span when that is longer.
   */
  settleMs: number;
  /** Who publishes, for the message a second publisher gets (default: host and process id). */
  owner?: { host: string; pid: number };
}

export async function acquirePublishLock(options: LockOptions): Promise<PublishLock> {
  const { storage, clock, logger } = options;
  const host = options.owner?.host ?? hostname();
  const pid = options.owner?.pid ?? process.pid;
  const checked = performance.now();
  const now = clock.now();
  const record: LockRecord = {
    owner: `${host} (pid ${pid})`,
    host,
    pid,
    token: randomBytes(12).toString("hex"),
    started_at: now.toISOString(),
    expires_at: new Date(now.getTime() + LOCK_TTL_MS).toISOString(),
  };
  const body = `${JSON.stringify(record)}\n`;
  const existing = await readLock(storage);
  if (existing && !isStale(existing, now, host)) throw heldBy(existing, storage);
  if (existing) {
    logger.warn("taking over the publish lock of a publisher that is gone", {
      owner: existing.owner,
      started_at: existing.started_at,
      expires_at: existing.expires_at,
    });
    await storage.delete(LOCK_KEY);
  }
  if (!(await storage.putIfAbsent(LOCK_KEY, body))) throw heldBy(await readLock(storage), storage);
  // a second create of the same lock must fail on a store that honours the condition
  const mode = (await storage.putIfAbsent(LOCK_KEY, body)) ? "read-back" : "conditional";
  const lock: PublishLock = {
    record,
    mode,
    async confirm() {
      const stored = await readLock(storage);
      if (stored?.token === record.token) return;
      throw new AppError(
        `The publish lock of ${storage.location} is no longer this publisher's (${record.owner}): ${stored ? `${stored.owner} took it at ${stored.started_at}` : "it was removed"}; the release is not made live.`,
        {
          hint: "Another publish runs or ran against the same prefix: let it finish, then publish again (this release resumes).",
          stage: "publish",
        },
      );
    },
    async release() {
      if ((await readLock(storage))?.token === record.token) await storage.delete(LOCK_KEY);
    },
  };
  // Taking over (a delete, then a create) is verified like a store without conditions: two takers may both delete.
  if (mode === "conditional" && !existing) return lock;
  const span = performance.now() - checked;
  await sleep(Math.max(options.settleMs, 2 * span));
  const back = await readLock(storage);
  if (back?.token !== record.token) throw heldBy(back, storage);
  return lock;
}

async function readLock(storage: Storage): Promise<LockRecord | undefined> {
  for (let attempt = 1; ; attempt++) {
    const bytes = await storage.get(LOCK_KEY);
    if (bytes === undefined) return undefined;
    try {
      return JSON.parse(bytes.toString("utf8")) as LockRecord;
    } catch (error) {
      // s3rver writes an object in place, so a read during another publisher's write may see part of it: read again
      if (attempt < TORN_READ_ATTEMPTS) {
        await sleep(TORN_READ_PAUSE_MS);
        continue;
      }
      throw new AppError(
        `The publish lock ${LOCK_KEY} of ${storage.location} is not a lock this program wrote.`,
        {
          hint: `Delete ${LOCK_KEY} once no publish runs, then publish again.`,
          stage: "publish",
          cause: error,
        },
      );
    }
  }
}

/** Expired, or left by a process of this machine that no longer runs. */
function isStale(lock: LockRecord, now: Date, host: string): boolean {
  const expires = Date.parse(lock.expires_at);
  if (!Number.isNaN(expires) && expires <= now.getTime()) return true;
  return lock.host === host && lock.pid > 0 && !processRuns(lock.pid);
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function heldBy(lock: LockRecord | undefined, storage: Storage): AppError {
  const who = lock
    ? `${lock.owner}, publishing since ${lock.started_at} (its lock expires at ${lock.expires_at})`
    : "another publisher";
  return new AppError(`Another publish to ${storage.location} is under way: ${who}.`, {
    hint: `Wait for it to finish. If that publisher was killed on another machine, its lock (${LOCK_KEY}) is taken over once it expires; delete it sooner only when sure it is gone.`,
    stage: "publish",
  });
}
