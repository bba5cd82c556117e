// Feedback kept durably: one JSON line per message appended to <state>/feedback.jsonl and fsynced before the
// append resolves, so a 2xx is only sent for feedback on disk (a kill -9 right after loses nothing). Appends are
// serialised so lines never interleave. Read back only by operators (`projintel feedback list`).
import { randomBytes } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import { readTextIfExists } from "../../core/files.ts";
import type { FeedbackBody } from "../../schemas/index.ts";
import { keyedHash } from "../keys/secret.ts";

/** Where feedback is kept in a state folder. */
export function feedbackFile(stateRoot: string): string {
  return path.join(stateRoot, "feedback.jsonl");
}

/**
 * One stored feedback: the body as validated, its receipt, and who sent it as an HMAC keyed with the server secret
 * (never the key or address, and not recoverable by hashing every IPv4 address without the secret).
 */
export interface FeedbackRecord extends FeedbackBody {
  id: string;
  received_at: string;
  caller: string;
}

export interface FeedbackStore {
  /** Appends one feedback and resolves once it is on disk. */
  append(record: FeedbackRecord): Promise<void>;
  /** The caller (a quota key: an address or a key's hash) as stored: enough to group one sender's messages. */
  callerId(caller: string): string;
  close(): Promise<void>;
}

/** A new feedback id: the time in base 36 then random hex, so ids sort by arrival and never collide. */
export function newFeedbackId(now: Date): string {
  return `fb_${now.getTime().toString(36)}${randomBytes(5).toString("hex")}`;
}

export async function openFeedbackStore(file: string, options: { secret: string }): Promise<FeedbackStore> {
  let handle: FileHandle | undefined = await open(file, "a", 0o600);
  // The file may be new: its directory entry is made durable once, so the first line cannot vanish with it.
  await syncDirectory(path.dirname(file));
  let tail: Promise<void> = Promise.resolve();
  return {
    append(record) {
      const line = `${JSON.stringify(record)}\n`;
      const written = tail.then(async () => {
        if (!handle) throw new Error(`The feedback store ${file} is closed.`);
        await handle.appendFile(line, "utf8");
        await handle.sync();
      });
      tail = written.catch(() => {});
      return written;
    },
    callerId: (caller) => keyedHash(options.secret, `feedback:${caller}`).slice(0, 16),
    async close() {
      await tail;
      await handle?.close();
      handle = undefined;
    },
  };
}

/**
 * Every stored feedback received at or after `since` (ISO date or date-time), oldest first. A last line cut short
 * (a crash mid-write, before its 2xx) is skipped.
 */
export async function readFeedback(file: string, since?: string): Promise<FeedbackRecord[]> {
  const text = (await readTextIfExists(file)) ?? "";
  const records: FeedbackRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let record: FeedbackRecord;
    try {
      record = JSON.parse(line) as FeedbackRecord;
    } catch {
      continue;
    }
    if (since === undefined || record.received_at >= since) records.push(record);
  }
  return records;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
