// The history nights a `state pull --recent` left on the remote, recorded in the state folder (history-left.json), so
// a publish after it knows which nights exist that it does not hold: those it takes from the previous release, and
// one the previous release lacks too is an error naming it, never a silent gap in the datasets.
import path from "node:path";
import { z } from "zod";
import { AppError } from "./errors.ts";
import { readTextIfExists, writeJsonAtomic } from "./files.ts";

export const HISTORY_LEFT_FILE = "history-left.json";

/**
 * The history tables a publish packs by month for analysts (publish/dataset-months.ts): the nights of these a
 * `state pull --recent` left on the remote are the ones a publish takes from the previous release.
 */
export const PACKED_HISTORY_TABLES = ["snapshots", "lifecycle", "packages"] as const;
export type PackedHistoryTable = (typeof PACKED_HISTORY_TABLES)[number];

const schema = z.object({
  version: z.literal(1),
  /** The remote the pull read. */
  location: z.string(),
  /** The nights (YYYY-MM-DD) whose files of the packed tables the pull did not download, oldest first. */
  nights: z.array(z.iso.date()),
});
export type HistoryLeft = z.infer<typeof schema>;

/** Written by every pull (an empty list after a full one), replacing what an earlier pull recorded. */
export async function writeHistoryLeft(stateRoot: string, left: Omit<HistoryLeft, "version">): Promise<void> {
  const nights = [...new Set(left.nights)].sort();
  await writeJsonAtomic(path.join(stateRoot, HISTORY_LEFT_FILE), { version: 1, ...left, nights });
}

/** What the last pull left on the remote; none recorded (a folder never pulled): nothing. */
export async function readHistoryLeft(stateRoot: string): Promise<HistoryLeft | undefined> {
  const file = path.join(stateRoot, HISTORY_LEFT_FILE);
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  try {
    return schema.parse(JSON.parse(text));
  } catch (error) {
    throw new AppError(`${file} is not a valid record of the history a pull left on the remote.`, {
      hint: "Pull the state again (projintel state pull) to write it anew.",
      cause: error,
    });
  }
}
