// The history a publish does not hold locally, taken from the previous release. A runner that restored its state with
// `state pull --recent` has only the nights after the warehouse snapshot; the older nights, and the closed months
// packed from them, are the previous release's files (same bytes, sha256 and rows), copied on the target — never
// downloaded and uploaded again. The current month grows each night, so it cannot be copied: the previous release's
// packed file of it (a few MB, where its nights are over a hundred) is downloaded and extended with the nights held
// here (dataset-months.ts extendMonth). A night the last pull left on the remote that the previous release does not
// list either is an error naming it: the datasets never silently lose a night.
import { AppError } from "../core/errors.ts";
import type { Storage } from "../core/storage.ts";
import { hashFile } from "./dataset-history.ts";
import { datasetIndexSchema } from "./dataset-index.ts";
import type { DatasetEntry } from "./datasets.ts";
import { releaseKey } from "./layout.ts";
import { DATASETS_INDEX_FILE } from "./routes/datasets.ts";

/** The previous release's dataset index, by path. */
export interface PreviousDatasets {
  releaseId: string;
  /** Where it is stored: the target of the publish. */
  storage: Storage;
  entries: ReadonlyMap<string, DatasetEntry>;
  /** Its history nights (the snapshots file of each), by night. */
  nights: ReadonlyMap<string, DatasetEntry>;
  /** Why its index could not be read (then it lends nothing). */
  unreadable?: string;
}

export const RESTORE_HINT =
  "Restore the whole history (projintel state pull, without --recent) and publish again: the release is packed from every night then.";

/**
 * The live release's dataset index; undefined when it has none (a release from before datasets). One this version
 * cannot read carries nothing, and says why when a night only that release holds is refused (planNights).
 */
export async function readPreviousDatasets(
  storage: Storage,
  releaseId: string,
): Promise<PreviousDatasets | undefined> {
  const body = await storage.get(releaseKey(releaseId, DATASETS_INDEX_FILE));
  if (body === undefined) return undefined;
  let index: ReturnType<typeof datasetIndexSchema.safeParse>;
  try {
    index = datasetIndexSchema.safeParse(JSON.parse(body.toString("utf8")));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { releaseId, storage, entries: new Map(), nights: new Map(), unreadable: error.message };
  }
  if (!index.success)
    return { releaseId, storage, entries: new Map(), nights: new Map(), unreadable: index.error.message };
  const entries = index.data.files as DatasetEntry[];
  return {
    releaseId,
    storage,
    entries: new Map(entries.map((f) => [f.path, f])),
    nights: new Map(
      entries.flatMap((f) => (f.date !== undefined && f.name === "snapshots" ? [[f.date, f]] : [])),
    ),
  };
}

export interface NightPlan {
  /** Every night the release lists, oldest first. */
  nights: string[];
  /** The nights not held locally: the previous release's entry of each. */
  carried: Map<string, DatasetEntry>;
}

/**
 * The nights of the release: the local ones, and the previous release's nights this folder lacks. `left` are the
 * nights the last pull left on the remote (core/history-left.ts): each must be local or in the previous release.
 */
export function planNights(
  local: readonly string[],
  previous: PreviousDatasets | undefined,
  left: readonly string[],
  historyDir: string,
): NightPlan {
  const held = new Set(local);
  const listed = previous?.nights ?? new Map<string, DatasetEntry>();
  const lost = left.filter((night) => !held.has(night) && !listed.has(night));
  if (lost.length > 0) {
    throw new AppError(
      `History night ${lost[0]}${lost.length > 1 ? ` (and ${lost.length - 1} more)` : ""} is neither in ${historyDir} nor in the previous release${releaseNamed(previous)}, so the release's datasets would miss it.`,
      { hint: RESTORE_HINT, stage: "publish" },
    );
  }
  const carried = new Map([...listed].filter(([night]) => !held.has(night)));
  return { nights: [...new Set([...local, ...carried.keys()])].sort(), carried };
}

/**
 * The previous release's packed month of `table`, for a closed month some of whose nights are not held locally: it
 * holds the same nights when every night held locally has the previous release's sha256 (else the month changed, and
 * packing it again needs all its nights). The current month is extended instead (priorMonth).
 */
export function carriedMonth(options: {
  table: string;
  month: string;
  path: string;
  /** The month's nights held locally, with the sha256 of each. */
  local: ReadonlyMap<string, string>;
  previous: PreviousDatasets | undefined;
}): DatasetEntry {
  const { table, month, previous } = options;
  for (const [night, sha256] of options.local) {
    if (previous?.nights.get(night)?.sha256 !== sha256) {
      throw new AppError(
        `History night ${night} differs from the previous release's, and its month ${month} cannot be packed again: this folder does not hold the month's other nights.`,
        { hint: RESTORE_HINT, stage: "publish" },
      );
    }
  }
  const entry = previous?.entries.get(options.path);
  if (entry === undefined) {
    throw new AppError(
      `The ${table} history of ${month} is not packed in the previous release${releaseNamed(previous)}, and this folder does not hold every night of it.`,
      { hint: RESTORE_HINT, stage: "publish" },
    );
  }
  return entry;
}

/** The previous release's packed file of a month, to extend with the nights held locally (dataset-months.ts). */
export interface PriorMonth {
  /** Its entry in the previous release's dataset index. */
  entry: DatasetEntry;
  /** Downloads it to `file`, checked against the entry's size and sha256. */
  download(file: string): Promise<void>;
  /** The nights the previous release lists: its packed month holds each one's rows (none, for a night with none). */
  listed: ReadonlySet<string>;
}

/**
 * The previous release's packed current month of `table`: a `state pull --recent` leaves the month's nights at or
 * before the snapshot on the remote, and that release packed them (planNights has checked it lists every such night).
 */
export function priorMonth(options: {
  table: string;
  month: string;
  path: string;
  previous: PreviousDatasets | undefined;
}): PriorMonth {
  const { table, month, previous } = options;
  const entry = previous?.entries.get(options.path);
  if (previous === undefined || entry === undefined) {
    throw new AppError(
      `The ${table} history of ${month} is not packed in the previous release${releaseNamed(previous)}, and this folder does not hold every night of it, so the month cannot be packed.`,
      { hint: RESTORE_HINT, stage: "publish" },
    );
  }
  const key = releaseKey(previous.releaseId, entry.path);
  return {
    entry,
    listed: new Set(previous.nights.keys()),
    async download(file) {
      if (!(await previous.storage.getFile(key, file))) {
        throw new AppError(
          `${previous.storage.location}/${key} is missing, though the previous release's dataset index lists it.`,
          { hint: RESTORE_HINT, stage: "publish" },
        );
      }
      const got = await hashFile(file);
      if (got.bytes !== entry.bytes || got.sha256 !== entry.sha256) {
        throw new AppError(
          `${previous.storage.location}/${key} (${got.bytes} bytes, sha256 ${got.sha256}) does not match the previous release's dataset index (${entry.bytes} bytes, sha256 ${entry.sha256}).`,
          {
            hint: `Publish again (a download cut short is fetched anew); if it persists: ${RESTORE_HINT}`,
            stage: "publish",
          },
        );
      }
    },
  };
}

/** " <id>", and why its datasets could not be read if they could not. */
function releaseNamed(previous: PreviousDatasets | undefined): string {
  if (previous === undefined) return "";
  return ` ${previous.releaseId}${previous.unreadable ? ` (its dataset index could not be read: ${previous.unreadable})` : ""}`;
}
