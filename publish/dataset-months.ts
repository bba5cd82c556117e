// The history packed for analysts: per history table (snapshots, lifecycle, packages), one Parquet file per month
// (every closed month, and the current one: the month of the latest night), at Hive-style paths
// (datasets/history/snapshots/month=2026-11/…), so a year of a table is at most 13 files. Rows are sorted by the
// table's project key and date in row groups of PACKED_ROW_GROUP_ROWS, so a reader filtering on one project reads the
// footer and the row groups whose key range holds it. A month
// is written once into a folder kept between publishes and rewritten only when one of its nights changed; DuckDB
// writes the same bytes for the same rows, so an unchanged closed month keeps its sha256 and is copied, not uploaded.
// A current month whose earlier nights this folder lacks (a `state pull --recent`) is the previous release's packed
// file of it extended with the local nights (extendMonth): the same rows, so the same bytes.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { PACKED_HISTORY_TABLES, type PackedHistoryTable } from "../core/history-left.ts";
import { type PriorMonth, RESTORE_HINT } from "./dataset-carry.ts";
import { type HistoryPartition, historyContent, type PreviousFile, readFooter } from "./dataset-history.ts";

/**
 * Rows per row group of a packed month. At 220,000 repositories a month of snapshots is about 6.6 million rows, so
 * about 200 row groups: a filter on one project reads about 1/200 of the file after its footer.
 */
export const PACKED_ROW_GROUP_ROWS = 32_768;
/** A history table packed by month: its nights come from `<history>/<table>/date=YYYY-MM-DD/data.parquet`. */
export interface PackedTable {
  table: PackedHistoryTable;
  /** The row order: the project first (what a reader filters on), then the night, then what makes a row unique. */
  sortBy: readonly string[];
  /** What one row is, for the dataset index. */
  rows: string;
}

/**
 * The history tables the nightly writes per night (pipeline/history.ts) that are public: the raw source tables
 * (history/raw/) are the sources' payloads and stay in the state folder.
 */
const PACKING: Record<PackedHistoryTable, Omit<PackedTable, "table">> = {
  snapshots: {
    sortBy: ["full_name", "date", "node_id"],
    rows: "one row per tracked repository a night",
  },
  lifecycle: {
    sortBy: ["node_id", "date"],
    rows: "each repository's candidate lifecycle stage a night (join snapshots on node_id and date for its name)",
  },
  packages: {
    sortBy: ["repo_full_name", "registry", "package", "date"],
    rows: "one row per package linked to a repository a night (PyPI, npm, Docker Hub, Hugging Face)",
  },
};
export const PACKED_TABLES: readonly PackedTable[] = PACKED_HISTORY_TABLES.map((table) => ({
  table,
  ...PACKING[table],
}));

/** Changes whenever the way a month is packed does, so every cached month is rewritten once. */
function packingVersion(table: PackedTable): string {
  return `v1 zstd ${PACKED_ROW_GROUP_ROWS} by ${table.sortBy.join(", ")}`;
}

export interface PackedMonth {
  table: string;
  month: string;
  /** The month of the latest night: it grows night by night; every earlier month is closed. */
  current: boolean;
  /** The packed Parquet file (in the folder kept between publishes). */
  file: string;
  /** Identifies the month's nights: equal fingerprints, equal bytes. */
  fingerprint: string;
  release_path: string;
  rows: number;
  bytes: number;
  sha256: string;
  columns: { name: string; type: string }[];
  nights: number;
}

export interface PackContext {
  db: Db;
  /** Where packed months are kept between publishes (state folder), one folder per table and month. */
  packedDir: string;
  previous?: ReadonlyMap<string, PreviousFile> | undefined;
}

/** Release path of a packed month. */
export function packedPath(table: string, month: string): string {
  return `datasets/history/${table}/month=${month}/${table}.parquet`;
}

/**
 * Packs the nights of one table (oldest first) by month; months whose nights did not change are not rewritten.
 * `latest`: the month of the release's latest night (the current one), by default the last of `nights`.
 */
export async function* packMonths(
  ctx: PackContext,
  packed: PackedTable,
  nights: readonly HistoryPartition[],
  latest = nights.at(-1)?.date.slice(0, 7),
): AsyncGenerator<PackedMonth> {
  const months = new Map<string, HistoryPartition[]>();
  for (const night of nights) {
    const month = night.date.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), night]);
  }
  for (const [month, members] of months) {
    const plan: MonthPlan = { month, current: month === latest, members: members.map(memberOf) };
    yield await packMonth(ctx, packed, plan, (file) =>
      writeMonth(ctx.db, packed, plan, file, `SELECT date, * EXCLUDE (date)\n  FROM ${readNights(members)}`),
    );
  }
}

/**
 * The current month of one table extended: the previous release's packed file of it (`prior`) for the nights of
 * `nights` (the release's nights of the month) this folder lacks, and `local`, this folder's nights of it. The rows
 * and their order are those of packing every night here, so the bytes are too (DuckDB writes the same bytes for the
 * same rows): a `state pull --recent` need not download the month's earlier nights, only that one packed file.
 */
export async function extendMonth(
  ctx: PackContext,
  packed: PackedTable,
  month: { month: string; nights: readonly string[]; local: readonly HistoryPartition[]; prior: PriorMonth },
): Promise<PackedMonth> {
  const { local, prior } = month;
  const held = new Set(local.map((n) => n.date));
  // a night not held here is the prior file's rows of it: that file's sha256 changes whenever any of them does
  const members = month.nights.map((date) =>
    held.has(date)
      ? memberOf(local.find((n) => n.date === date) as HistoryPartition)
      : `${date}:previous ${prior.entry.sha256}`,
  );
  const plan: MonthPlan = { month: month.month, current: true, members };
  return packMonth(ctx, packed, plan, async (file) => {
    const source = `${file}.previous.${process.pid}.tmp`;
    try {
      await prior.download(source);
      await checkMonthNights(ctx.db, packed.table, month, source, held);
      // hive partitioning off: the prior file's night is its date column, not its path
      const before = [...held].map((date) => `DATE ${sqlLiteral(date)}`).join(", ");
      const select = `SELECT * FROM (
  SELECT * FROM read_parquet(${sqlLiteral(source)}, hive_partitioning = false) WHERE date NOT IN (${before})
  UNION ALL BY NAME
  SELECT date, * EXCLUDE (date) FROM ${readNights(local)}
)`;
      await writeMonth(ctx.db, packed, plan, file, select);
    } finally {
      await rm(source, { force: true });
    }
  });
}

/** A month to pack: one member per night (`date:identity`), equal members, equal bytes. */
interface MonthPlan {
  month: string;
  current: boolean;
  members: readonly string[];
}

function memberOf(night: HistoryPartition): string {
  return `${night.date}:${night.fingerprint}`;
}

/** The month's packed file in packedDir, written by `write` (to the path it is given) unless its members are cached. */
async function packMonth(
  ctx: PackContext,
  packed: PackedTable,
  { month, current, members }: MonthPlan,
  write: (file: string) => Promise<void>,
): Promise<PackedMonth> {
  const { table } = packed;
  const fingerprint = createHash("sha256")
    .update(packingVersion(packed))
    .update(members.join("\n"))
    .digest("hex")
    .slice(0, 32);
  const folder = path.join(ctx.packedDir, table, `month=${month}`);
  const file = path.join(folder, "data.parquet");
  const marker = path.join(folder, "fingerprint");
  const known = await readFile(marker, "utf8").catch(() => undefined);
  if (known !== fingerprint) {
    await mkdir(folder, { recursive: true });
    // the marker goes first: a publish killed between the file and the marker rewrites the month next time
    await rm(marker, { force: true });
    await write(file);
    await writeFile(marker, fingerprint);
  }
  const releasePath = packedPath(table, month);
  const content = await historyContent({ date: month, file, fingerprint }, ctx.previous?.get(releasePath));
  const footer = await readFooter(ctx.db, file);
  return {
    table,
    month,
    current,
    file,
    fingerprint,
    release_path: releasePath,
    rows: footer.rows,
    bytes: content.bytes,
    sha256: content.sha256,
    columns: footer.columns,
    nights: members.length,
  };
}

/** The nights' files as one relation; the night is in each file's path (date=YYYY-MM-DD), read as a DATE. */
function readNights(nights: readonly HistoryPartition[]): string {
  const files = `[${nights.map((n) => sqlLiteral(n.file)).join(", ")}]`;
  return `read_parquet(${files}, hive_partitioning = true, hive_types = {'date': DATE}, union_by_name = true)`;
}

/**
 * The prior file's nights not held here, and the nights held here, must be exactly the month's nights of the release:
 * one missing would silently leave the month without it.
 */
async function checkMonthNights(
  db: Db,
  table: string,
  month: { month: string; nights: readonly string[]; prior: PriorMonth },
  source: string,
  held: ReadonlySet<string>,
): Promise<void> {
  const rows = await db.all<{ night: string }>(
    `SELECT DISTINCT strftime(date, '%Y-%m-%d') AS night FROM read_parquet(${sqlLiteral(source)}, hive_partitioning = false)`,
  );
  const have = new Set([...rows.map((r) => r.night), ...held]);
  const wanted = new Set(month.nights);
  // a night the previous release lists but its file has no row of had none (an empty night of packages, say)
  const missing = month.nights.find((night) => !have.has(night) && !month.prior.listed.has(night));
  const extra = [...have].sort().find((night) => !wanted.has(night));
  if (missing === undefined && extra === undefined) return;
  throw new AppError(
    missing !== undefined
      ? `History night ${missing} of ${table} is neither in this folder nor in the previous release's ${month.prior.entry.path}, so the month ${month.month} would miss it.`
      : `History night ${extra} of ${table} (in this folder or the previous release's ${month.prior.entry.path}) is not a night of the release, so the month ${month.month} cannot be packed as its nights say.`,
    { hint: RESTORE_HINT, stage: "publish" },
  );
}

/** COPYs `select` (the month's rows) in the table's order to `file`, through a temp file. */
async function writeMonth(
  db: Db,
  { table, sortBy }: PackedTable,
  { month, members }: MonthPlan,
  file: string,
  select: string,
): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await db.run(
      `COPY (
  ${select}
  ORDER BY ${sortBy.join(", ")}
) TO ${sqlLiteral(temp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${PACKED_ROW_GROUP_ROWS})`,
    );
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new AppError(
      `Packing ${table} of ${month} (${members.length} nights) failed: ${(error as Error).message}`,
      {
        hint: "Check the history's Parquet files of that month (projintel history list) and that the state folder is writable.",
        cause: error,
      },
    );
  }
}
