// The labelled repositories (data/labelled/) split once, by a stable hash of the name, into the rows the rules may
// be tuned on and a held-out fifth that only measures them. The split is checked in as two files; the test beside
// this file checks each row sits in the file its hash names.
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

const LABELLED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "data", "labelled");
/** Rows the taxonomy may be tuned against (four fifths). */
export const TUNING_FILE = path.join(LABELLED_DIR, "tuning.jsonl");
/** Rows never looked at while tuning (one fifth): their accuracy says how the rules generalise. */
export const HOLDOUT_FILE = path.join(LABELLED_DIR, "holdout.jsonl");
/** One row in this many is held out. */
export const HOLDOUT_EVERY = 5;

/** Whether a repository belongs to the held-out part: sha256 of its lower-cased owner/name, first 4 bytes mod 5. */
export function isHeldOut(fullName: string): boolean {
  const digest = createHash("sha256").update(fullName.toLowerCase()).digest();
  return digest.readUInt32BE(0) % HOLDOUT_EVERY === 0;
}
