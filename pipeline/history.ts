// The durable record: every night's raw rows, the snapshot of every tracked repository and of every package, kept
// forever as date-partitioned Parquet under the state folder (history/). The warehouse can be rebuilt from it.
//   history/raw/<raw table>/run_date=YYYY-MM-DD/data.parquet   rows the sources collected that night
//   history/snapshots/date=YYYY-MM-DD/data.parquet             one row per tracked repository (snapshots table)
//   history/lifecycle/date=YYYY-MM-DD/data.parquet             each repository's candidate stage (lifecycle_candidates)
//   history/packages/date=YYYY-MM-DD/data.parquet              one row per linked package (feat_packages)
//   history/kept/<table>/data.parquet                          the latest night's repo_names and classifications
// Each file is written by DuckDB to a temp name and renamed into place, so a killed night leaves no half file.
import { existsSync } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../core/db.ts";
import { openDb, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { commitTempFile, removeTempFiles } from "../core/files.ts";
import type { Logger } from "../core/log.ts";
import { ensureRawTables, RAW_TABLES, retainCandidatesAsOfLatest, SNAPSHOT_DAYS } from "./score.ts";
import { localSnapshots, type SnapshotReport, snapshotDue, writeSnapshot } from "./state/snapshot.ts";

export interface HistoryReport {
  run_date: string;
  files: number;
  bytes: number;
  /** The warehouse snapshot written after the night's files, when one was due (state-snapshot.ts). */
  snapshot?: SnapshotReport;
  duration_ms: number;
}

interface Part {
  /** Folder under history/, holding one partition folder per night. */
  dir: string;
  /** The partition key, written in the folder name and not stored in the file. */
  key: "run_date" | "date";
  /** The night's rows; the key column is left out (Hive partitioning restores it when reading). */
  select: (day: string) => string;
}

/**
 * Tables kept across nights that the nights' files alone would rebuild slowly: each night writes them whole, and a
 * rebuild loads them, so the first night scored on a restored warehouse folds one night of names and classifies
 * only what changed — not every night since the first (issue 21 measured a first night on a fresh warehouse at 97 s
 * against 14.5 s for a later one, at 220,000 repositories and 400 nights). Both are incremental by design
 * (foldRepoNames, classifications.sql), so the tables come out the same.
 */
export const KEPT_SNAPSHOTS = ["repo_names", "classifications"] as const;
/** The tables a rebuild from the history fills, each counted in its report. */
export const REBUILT_TABLES = [
  ...RAW_TABLES,
  "snapshots",
  "transitions",
  "lifecycle_candidates",
  ...KEPT_SNAPSHOTS,
] as const;

const keptFile = (root: string, table: string) => path.join(root, "kept", table, "data.parquet");

/** Everything written for one night, in the order written. */
export function historyParts(): Part[] {
  const raw: Part[] = RAW_TABLES.map((table) => ({
    dir: path.posix.join("raw", table),
    key: "run_date",
    select: (day) => `SELECT * EXCLUDE (run_date) FROM ${table} WHERE run_date = ${day} ORDER BY ALL`,
  }));
  return [
    ...raw,
    {
      dir: "snapshots",
      key: "date",
      select: (day) => `SELECT * EXCLUDE (date) FROM snapshots WHERE date = ${day} ORDER BY node_id`,
    },
    {
      dir: "lifecycle",
      key: "date",
      select: (day) =>
        `SELECT * EXCLUDE (date) FROM lifecycle_candidates WHERE date = ${day} ORDER BY node_id`,
    },
    {
      dir: "packages",
      key: "date",
      select: () => "SELECT * FROM feat_packages ORDER BY registry, package",
    },
  ];
}

function partitionFile(root: string, part: Part, runDate: string): string {
  return path.join(root, part.dir, `${part.key}=${runDate}`, "data.parquet");
}

/** Writes the night's history files (replacing a rerun's), after the score stage. */
export async function writeHistory(options: {
  db: Db;
  root: string;
  runDate: string;
  logger: Logger;
  /**
   * Also write the warehouse snapshot when one is due (default), into the state folder holding `root`
   * (<state>/history): a state restore then starts from it instead of every night of the history.
   */
  snapshot?: boolean;
}): Promise<HistoryReport> {
  const { db, root, runDate, logger } = options;
  const started = performance.now();
  const day = `DATE ${sqlLiteral(runDate)}`;
  let bytes = 0;
  const parts = historyParts();
  for (const part of parts) {
    const file = partitionFile(root, part, runDate);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await db.run(
      `COPY (${part.select(day)}) TO ${sqlLiteral(temp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
    );
    await commitTempFile(temp, file);
    bytes += (await stat(file)).size;
  }
  for (const table of KEPT_SNAPSHOTS) {
    const file = keptFile(root, table);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await db.run(
      `COPY (SELECT * FROM ${table} ORDER BY ALL) TO ${sqlLiteral(temp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
    );
    await commitTempFile(temp, file);
    bytes += (await stat(file)).size;
  }
  const stateRoot = path.dirname(root);
  let snapshot: SnapshotReport | undefined;
  if (options.snapshot !== false && snapshotDue((await localSnapshots(stateRoot)).at(-1), runDate))
    snapshot = await writeSnapshot({ db, stateRoot, night: runDate, logger });
  const report: HistoryReport = {
    run_date: runDate,
    files: parts.length + KEPT_SNAPSHOTS.length,
    bytes,
    ...(snapshot ? { snapshot } : {}),
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("history: night written", { ...report });
  return report;
}

/** Removes temp files a killed night left in history/; returns how many. */
export function removeHistoryLeftovers(root: string): Promise<number> {
  return removeTempFiles(root);
}

/**
 * The nights the history holds (those with a complete snapshot file, or of another part's files), oldest first.
 */
export async function historyNights(
  root: string,
  part: { dir: string; key: string } = { dir: "snapshots", key: "date" },
): Promise<string[]> {
  const dir = path.join(root, part.dir);
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const prefix = `${part.key}=`;
  return entries
    .filter(
      (name) =>
        name.startsWith(prefix) &&
        /^\d{4}-\d{2}-\d{2}$/.test(name.slice(prefix.length)) &&
        existsSync(path.join(dir, name, "data.parquet")),
    )
    .map((name) => name.slice(prefix.length))
    .sort();
}

function glob(root: string, part: Part): string {
  return sqlLiteral(path.join(root, part.dir, `${part.key}=*`, "data.parquet"));
}

export interface RebuildReport {
  nights: number;
  first: string | null;
  last: string | null;
  table_rows: Record<string, number>;
  duration_ms: number;
}

/**
 * Builds a new warehouse at `target` from the history alone: every raw row, the last SNAPSHOT_DAYS nights of
 * snapshots, and the lifecycle transitions replayed from every snapshot. Scoring the last night on it gives the
 * same tables as the warehouse the history was written from.
 */
export async function rebuildWarehouse(options: {
  root: string;
  target: string;
  logger: Logger;
}): Promise<RebuildReport> {
  const { root, target, logger } = options;
  const started = performance.now();
  if (existsSync(target)) {
    throw new AppError(`Refusing to rebuild into ${target}: the file exists.`, {
      hint: "Pass a new file (--to), or move the old warehouse away first.",
    });
  }
  const nights = await historyNights(root);
  if (nights.length === 0) {
    throw new AppError(`The history at ${root} holds no night: nothing to rebuild from.`, {
      hint: "Run `projintel nightly` first; each night writes its history after scoring.",
    });
  }
  const temp = `${target}.${process.pid}.tmp`;
  const db = await openDb(temp);
  const tableRows: Record<string, number> = {};
  try {
    await ensureRawTables(db);
    const parts = historyParts();
    for (const part of parts.filter((p) => p.key === "run_date")) {
      const table = path.posix.basename(part.dir);
      if (!existsSync(path.join(root, part.dir))) continue;
      await db.run(
        `INSERT INTO ${table} BY NAME SELECT * FROM read_parquet(${glob(root, part)}, hive_partitioning = true, union_by_name = true) ORDER BY run_date`,
      );
    }
    for (const table of KEPT_SNAPSHOTS) {
      const file = keptFile(root, table);
      if (existsSync(file))
        await db.run(`INSERT INTO ${table} BY NAME SELECT * FROM read_parquet(${sqlLiteral(file)})`);
    }
    const snapshots = parts.find((p) => p.dir === "snapshots") as Part;
    const last = nights.at(-1) as string;
    const source = `read_parquet(${glob(root, snapshots)}, hive_partitioning = true)`;
    await db.run(
      `INSERT INTO snapshots BY NAME SELECT * FROM ${source} WHERE date > DATE ${sqlLiteral(last)} - ${SNAPSHOT_DAYS} ORDER BY date, node_id`,
    );
    // the candidate stages a change of stage waits on (score_lifecycle.sql), as scoring the last night left them
    const lifecycle = parts.find((p) => p.dir === "lifecycle") as Part;
    if (existsSync(path.join(root, lifecycle.dir))) {
      await db.run(
        `INSERT INTO lifecycle_candidates BY NAME SELECT * FROM read_parquet(${glob(root, lifecycle)}, hive_partitioning = true) WHERE date > DATE ${sqlLiteral(last)} - ${SNAPSHOT_DAYS} ORDER BY date, node_id`,
      );
      await retainCandidatesAsOfLatest(db);
    }
    await db.run(insertTransitions(source));
    for (const table of REBUILT_TABLES) {
      const [row] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      tableRows[table] = row?.n ?? 0;
    }
    await db.run("CHECKPOINT");
  } finally {
    db.close();
  }
  await commitTempFile(temp, target);
  const report = {
    nights: nights.length,
    first: nights[0] ?? null,
    last: nights.at(-1) ?? null,
    table_rows: tableRows,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("history: warehouse rebuilt", { target, ...report });
  return report;
}

/**
 * The INSERT of the transitions a run of snapshots records: a change of stage from one snapshot of a repository to
 * its next, as transitions.sql records it night by night. `source` is the snapshots to read (a table or a
 * read_parquet), `after` (a SQL date) keeps only the changes after that night.
 */
export function insertTransitions(source: string, after?: string): string {
  return `INSERT INTO transitions
SELECT node_id, full_name, date, from_stage, lifecycle_stage
FROM (
  SELECT node_id, full_name, date, lifecycle_stage,
    lag(lifecycle_stage) OVER (PARTITION BY node_id ORDER BY date) AS from_stage
  FROM ${source}
)
WHERE ${after === undefined ? "" : `date > ${after} AND `}from_stage IS DISTINCT FROM lifecycle_stage
ORDER BY date, node_id`;
}
