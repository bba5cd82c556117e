// The warehouse snapshot: what scoring the next nights needs of the warehouse, written every SNAPSHOT_EVERY_NIGHTS
// nights as zstd Parquet (one file per table; per month for snapshots and contributor counts, whose unchanged
// months are carried from the previous snapshot: MONTHLY_TABLES) under <state>/warehouse-snapshot/<night>/, and
// travelling with the state. A runner restoring its state downloads the latest snapshot and the history partitions
// of the nights after it — not every night since the first — and builds its warehouse from them (restoreWarehouse),
// so a restore costs the same after a year as after a month (`state pull --recent`; a publish takes the older
// nights, and the current month's packed, from the previous release; a plain pull fetches every night). The
// history's Parquet files stay complete on the remote.
//
// What a snapshot holds, and why it is enough (each transform's window, pipeline/sql/):
//   - every kept table (KEPT_TABLES: repo names, classifications, transitions, the lifecycle candidates scoring
//     still reads, 90 nights of snapshots, carried shards) and every table a transform appends to night by night
//     (CREATE TABLE IF NOT EXISTS: releases, contributors, briefings), whole;
//   - the raw tables a transform reads over all nights (raw_github_gone, raw_hn_posts, raw_arxiv_papers), whole;
//   - the other raw tables trimmed to the rows a later night can still read: GitHub's rows to GITHUB_WINDOW_DAYS
//     (the tracked window and the star trend's, feat_repos.sql and feat_stars.sql), the registries' to their last
//     PACKAGE_RECENT_DAYS nights and, of the older nights in PACKAGE_WINDOW_DAYS, each package's latest rows and
//     those releases.sql has not read yet (feat_packages.sql, ds_dependencies_trending.sql, releases.sql), the
//     stargazer bootstrap by its day.
// So scoring a night after the snapshot on a restored warehouse reads the same rows as on the warehouse the
// snapshot was taken from (tested against a full rebuild: test/state-snapshot.test.ts). Re-scoring a night
// at or before the snapshot needs the whole history: `projintel history rebuild`.
//
// A snapshot folder is written under a temp name and renamed into place, its manifest.json last; on the remote the
// state index names it only after every file of it is uploaded (state-sync.ts), so a pull never sees half of one.
import { existsSync } from "node:fs";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { type Db, openDb, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";
import { commitTempFile, writeJsonAtomic } from "../../core/files.ts";
import type { Logger } from "../../core/log.ts";
import { historyParts, insertTransitions, KEPT_SNAPSHOTS } from "../history.ts";
import { CONSTANTS } from "../methodology.ts";
import {
  ensureRawTables,
  isRawTable,
  KEPT_TABLES,
  RAW_TABLES,
  retainCandidatesAsOfLatest,
  SNAPSHOT_DAYS,
  TRANSFORMS,
} from "../score.ts";
import { TRACKED_FOR_DAYS } from "../sources/github/tracked.ts";
import { markRawOnly } from "./warehouse-scope.ts";

/** A new snapshot is written when the latest is this many nights old (or there is none). */
export const SNAPSHOT_EVERY_NIGHTS = 4;
/** The folder of the state holding the latest snapshot, one sub-folder per night. */
export const SNAPSHOT_DIR = "warehouse-snapshot";

/**
 * The tables a snapshot writes one file per calendar month of a date column (`<table>.<YYYY-MM>.parquet`): the rows of
 * their past nights never change, so a month before the snapshot's is carried from the previous snapshot when the
 * warehouse holds the same rows of it, night by night (a night the retention has dropped since may stay in the file:
 * a restore deletes it). So writing a snapshot encodes the current month's rows, not 90 nights of snapshots (17.8
 * million rows at 220,000 repositories), and a year of contributor counts.
 */
export const MONTHLY_TABLES: Readonly<Record<string, { column: string; keepDays?: number }>> = {
  snapshots: { column: "date", keepDays: SNAPSHOT_DAYS },
  contributors: { column: "date" },
};

const constant = (name: string): number => {
  const found = CONSTANTS.find((c) => c.name === name);
  if (!found) throw new Error(`state-snapshot: no methodology constant ${name}`);
  return found.value;
};

/** GitHub's raw rows a later night reads: the tracked window, and the star trend's (its window, 3 days to smooth). */
export const GITHUB_WINDOW_DAYS = Math.max(TRACKED_FOR_DAYS, constant("trend_window_days") + 3) + 1;
/** The registries' raw rows a later night reads (a package keeps its last row this long; npm's comparison point). */
export const PACKAGE_WINDOW_DAYS =
  Math.max(
    constant("package_window_days"),
    constant("package_stale_days") + constant("dependencies_compare_max_days"),
  ) + 1;
/** The registries' nights a later night reads whole: npm's daily series and its comparison points. */
export const PACKAGE_RECENT_DAYS =
  constant("package_stale_days") + constant("dependencies_compare_max_days") + 1;

/**
 * What a later night reads of a registry's older rows (feat_packages.sql): each package's latest row by `order`, apart
 * for the rows naming a repository and those not (it takes the latest naming one) and for npm's monthly points and
 * daily series (`partition`); and of `releases` tables, every row after the last release releases.sql recorded.
 */
const REGISTRY_LATEST: Record<string, { partition: string; order: string; releases?: true }> = {
  raw_pypi_projects: { partition: "package, repo_full_name IS NULL", order: "run_date DESC", releases: true },
  raw_pypi_downloads: { partition: "package", order: "run_date DESC" },
  raw_npm_packages: { partition: "package, repo_full_name IS NULL", order: "run_date DESC", releases: true },
  raw_npm_downloads: {
    partition: "package, end_date - start_date >= 27",
    order: "run_date DESC, end_date DESC",
  },
  raw_dockerhub_repos: { partition: "image", order: "run_date DESC" },
  raw_hf_models: { partition: "model_id", order: "run_date DESC" },
};

/**
 * Which rows of a raw table the snapshot keeps, as a WHERE and a QUALIFY over the snapshot night `night`; undefined:
 * all of them. A registry keeps PACKAGE_RECENT_DAYS nights whole and of the older nights in its window only each
 * package's latest rows (ranked, so ties stay) and every row releases.sql would still read: a year leaves 92 nights
 * of registry rows in the warehouse, of which the snapshot keeps about 24 nights' worth.
 */
function rawKept(
  table: (typeof RAW_TABLES)[number],
  night: string,
  hasReleases: boolean,
): { where: string; qualify?: string } | undefined {
  const since = (days: number, column = "run_date") => `${column} > DATE ${sqlLiteral(night)} - ${days}`;
  const registry = REGISTRY_LATEST[table];
  if (registry) {
    const kept = [
      since(PACKAGE_RECENT_DAYS),
      `rank() OVER (PARTITION BY ${registry.partition} ORDER BY ${registry.order}) = 1`,
    ];
    if (registry.releases)
      kept.push(
        hasReleases
          ? "run_date > (SELECT coalesce(max(first_seen), DATE '0001-01-01') FROM releases)"
          : "true",
      );
    return { where: since(PACKAGE_WINDOW_DAYS), qualify: kept.join(" OR ") };
  }
  switch (table) {
    case "raw_github_repos":
    case "raw_github_activity":
      return { where: since(GITHUB_WINDOW_DAYS) };
    case "raw_github_stars":
      return { where: since(GITHUB_WINDOW_DAYS, "day") };
    default:
      // posts, papers and deletions: every night's, read over all nights
      return undefined;
  }
}

const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "sql");

/** The transforms that append to their table night by night instead of replacing it (releases, contributors, …). */
export async function appendedTables(): Promise<string[]> {
  const appended: string[] = [];
  for (const table of TRANSFORMS) {
    const text = await readFile(path.join(SQL_DIR, `${table}.sql`), "utf8");
    if (new RegExp(`CREATE TABLE IF NOT EXISTS ${table}\\b`).test(text)) appended.push(table);
  }
  return appended;
}

const monthFileSchema = z.object({
  name: z.string().regex(/^[a-z_]+\.\d{4}-\d{2}\.parquet$/),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Each night's rows in the file and the sum of their hashes: what a later snapshot compares to carry it. */
  nights: z.record(
    z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    z.tuple([z.number().int().nonnegative(), z.string()]),
  ),
});

const manifestSchema = z.object({
  version: z.literal(1),
  night: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  tables: z.array(
    z.object({
      table: z.string().regex(/^[a-z_]+$/),
      /** The table's CREATE TABLE statement, constraints included. */
      ddl: z.string(),
      rows: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
      /** A monthly table's files (MONTHLY_TABLES); otherwise its one file is `<table>.parquet`. */
      files: z.array(monthFileSchema).optional(),
    }),
  ),
});
export type SnapshotManifest = z.infer<typeof manifestSchema>;
type MonthFile = z.infer<typeof monthFileSchema>;

export interface SnapshotReport {
  night: string;
  tables: number;
  rows: number;
  bytes: number;
  /** The monthly files carried from the previous snapshot (not written again). */
  carried_files: number;
  duration_ms: number;
}

/** The nights of the complete snapshots in the state folder (those with a manifest), oldest first. */
export async function localSnapshots(stateRoot: string): Promise<string[]> {
  const names = await readdir(path.join(stateRoot, SNAPSHOT_DIR)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  return names
    .filter(
      (n) =>
        /^\d{4}-\d{2}-\d{2}$/.test(n) && existsSync(path.join(stateRoot, SNAPSHOT_DIR, n, "manifest.json")),
    )
    .sort();
}

/**
 * Whether the night `runDate` writes a new snapshot: none yet, the latest is SNAPSHOT_EVERY_NIGHTS old, or the night
 * is the snapshot's own or an earlier one (a rerun or a re-score changed the warehouse the snapshot was taken of).
 */
export function snapshotDue(latest: string | undefined, runDate: string): boolean {
  if (latest === undefined) return true;
  const days = (Date.parse(`${runDate}T00:00:00Z`) - Date.parse(`${latest}T00:00:00Z`)) / 86_400_000;
  return days >= SNAPSHOT_EVERY_NIGHTS || days <= 0;
}

/**
 * Writes the snapshot of the warehouse `db` as of `night` (the night just scored) into the state folder, replacing
 * any other snapshot there (the remote keeps the history; one snapshot is all a restore needs).
 */
export async function writeSnapshot(options: {
  db: Db;
  stateRoot: string;
  night: string;
  logger: Logger;
}): Promise<SnapshotReport> {
  const { db, stateRoot, night, logger } = options;
  const started = performance.now();
  const parent = path.join(stateRoot, SNAPSHOT_DIR);
  const temp = path.join(parent, `.${night}.${process.pid}.tmp`);
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  const tables: SnapshotManifest["tables"] = [];
  let carried = 0;
  try {
    const previous = await previousSnapshot(stateRoot, night);
    const wanted = [...RAW_TABLES, ...KEPT_TABLES, ...(await appendedTables())];
    const present = await db.all<{ table_name: string; sql: string }>(
      "SELECT table_name, sql FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary",
    );
    const ddl = new Map(present.map((t) => [t.table_name, t.sql]));
    for (const table of wanted) {
      const create = ddl.get(table);
      if (create === undefined) continue;
      const columns = new Set(
        (
          await db.all<{ name: string }>(
            "SELECT column_name AS name FROM duckdb_columns() WHERE table_name = $1 AND database_name = current_database() AND schema_name = 'main'",
            [table],
          )
        ).map((c) => c.name),
      );
      const kept = isRawTable(table) ? rawKept(table, night, ddl.has("releases")) : undefined;
      // one repository's rows side by side: night after night they barely change, so zstd packs them tightly
      const order = ["node_id", "date", "run_date"].filter((c) => columns.has(c));
      const copyStarted = performance.now();
      const monthly = MONTHLY_TABLES[table];
      if (monthly) {
        const months = await writeMonths(db, {
          table,
          ...monthly,
          order,
          night,
          dir: temp,
          previous: previous && {
            dir: previous.dir,
            files: previous.manifest.tables.find((t) => t.table === table)?.files ?? [],
          },
        });
        carried += months.carried;
        const files = months.files;
        tables.push({
          table,
          ddl: create,
          rows: files.reduce((sum, f) => sum + f.rows, 0),
          bytes: files.reduce((sum, f) => sum + f.bytes, 0),
          files,
        });
        logger.debug("state: snapshot table written", {
          table,
          files: files.length,
          carried: months.carried,
          duration_ms: Math.round(performance.now() - copyStarted),
        });
        continue;
      }
      const file = path.join(temp, `${table}.parquet`);
      await db.run(
        `COPY (SELECT * FROM ${table}${kept ? ` WHERE ${kept.where}` : ""}${kept?.qualify ? ` QUALIFY ${kept.qualify}` : ""}${order.length ? ` ORDER BY ${order.join(", ")}` : ""})
         TO ${sqlLiteral(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
      );
      const [counted] = await db.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlLiteral(file)})`,
      );
      tables.push({ table, ddl: create, rows: counted?.n ?? 0, bytes: (await stat(file)).size });
      logger.debug("state: snapshot table written", {
        ...tables.at(-1),
        ddl: undefined,
        duration_ms: Math.round(performance.now() - copyStarted),
      });
    }
    await writeJsonAtomic(path.join(temp, "manifest.json"), { version: 1, night, tables });
    const target = path.join(parent, night);
    await rm(target, { recursive: true, force: true });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  // the older snapshots leave this folder (and, at the next push, the index); the remote's history is complete
  for (const older of await localSnapshots(stateRoot)) {
    if (older !== night) await rm(path.join(parent, older), { recursive: true, force: true });
  }
  const report: SnapshotReport = {
    night,
    tables: tables.length,
    rows: tables.reduce((sum, t) => sum + t.rows, 0),
    bytes: tables.reduce((sum, t) => sum + t.bytes, 0),
    carried_files: carried,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("state: warehouse snapshot written", { ...report });
  return report;
}

/** The latest complete snapshot in the state folder before `night`, to carry monthly files from. */
async function previousSnapshot(
  stateRoot: string,
  night: string,
): Promise<{ dir: string; manifest: SnapshotManifest } | undefined> {
  const earlier = (await localSnapshots(stateRoot)).filter((n) => n < night).at(-1);
  if (earlier === undefined) return undefined;
  // a damaged one is not carried from: every month is written again
  const manifest = await readSnapshotManifest(stateRoot, earlier).catch(() => undefined);
  return manifest && { dir: path.join(stateRoot, SNAPSHOT_DIR, earlier), manifest };
}

/**
 * Writes a monthly table's files into `dir` (MONTHLY_TABLES), one per calendar month of `column`, each ordered as the
 * other tables; a month before the snapshot's is carried (hard-linked) from the previous snapshot instead when that
 * file holds exactly the warehouse's rows of each of its nights (rows and hash sum alike), besides nights older than
 * the table's retention.
 */
async function writeMonths(
  db: Db,
  options: {
    table: string;
    column: string;
    keepDays?: number;
    order: readonly string[];
    night: string;
    dir: string;
    previous: { dir: string; files: readonly MonthFile[] } | undefined;
  },
): Promise<{ files: MonthFile[]; carried: number }> {
  const { table, column, keepDays, order, night, dir, previous } = options;
  const nights = await db.all<{ night: string; rows: number; hash: string }>(
    `SELECT ${column}::VARCHAR AS night, count(*)::INTEGER AS rows, sum(hash(t))::VARCHAR AS hash
     FROM ${table} t GROUP BY 1 ORDER BY 1`,
  );
  const months = new Map<string, Record<string, [number, string]>>();
  for (const n of nights) {
    const month = n.night.slice(0, 7);
    const counts = months.get(month) ?? {};
    counts[n.night] = [n.rows, n.hash];
    months.set(month, counts);
  }
  const dropped = (day: string) =>
    keepDays !== undefined &&
    Date.parse(`${day}T00:00:00Z`) <= Date.parse(`${night}T00:00:00Z`) - keepDays * 86_400_000;
  const files: MonthFile[] = [];
  let carried = 0;
  for (const [month, counts] of months) {
    const name = `${table}.${month}.parquet`;
    const file = path.join(dir, name);
    const before = month < night.slice(0, 7) ? previous?.files.find((f) => f.name === name) : undefined;
    const same =
      before !== undefined &&
      Object.entries(counts).every(([day, [rows, hash]]) => {
        const held = before.nights[day];
        return held !== undefined && held[0] === rows && held[1] === hash;
      }) &&
      Object.keys(before.nights).every((day) => day in counts || dropped(day));
    if (previous && same && (await carry(path.join(previous.dir, name), file))) {
      files.push(before);
      carried++;
      continue;
    }
    await db.run(
      `COPY (SELECT * FROM ${table} WHERE date_trunc('month', ${column}) = DATE ${sqlLiteral(`${month}-01`)}
       ORDER BY ${order.join(", ")})
       TO ${sqlLiteral(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
    );
    const rows = Object.values(counts).reduce((sum, [n]) => sum + n, 0);
    files.push({ name, rows, bytes: (await stat(file)).size, nights: counts });
  }
  return { files, carried };
}

/** Hard-links (or copies) a file of the previous snapshot into the new one; false when it cannot (it is written). */
async function carry(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to).catch(() => copyFile(from, to));
    return true;
  } catch {
    return false;
  }
}

/** Removes what a snapshot writer killed midway left (its temp folder). */
export async function removeSnapshotLeftovers(stateRoot: string): Promise<void> {
  const parent = path.join(stateRoot, SNAPSHOT_DIR);
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (/^\.\d{4}-\d{2}-\d{2}\.\d+\.tmp$/.test(name))
      await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

export async function readSnapshotManifest(stateRoot: string, night: string): Promise<SnapshotManifest> {
  const file = path.join(stateRoot, SNAPSHOT_DIR, night, "manifest.json");
  try {
    return manifestSchema.parse(JSON.parse(await readFile(file, "utf8")));
  } catch (error) {
    throw new AppError(`${file} is not a valid warehouse snapshot manifest.`, {
      hint: "Pull the state again (projintel state pull); if the remote's snapshot is damaged, rebuild from the history (projintel history rebuild).",
      stage: "state",
      cause: error,
    });
  }
}

export interface RestoreReport {
  snapshot: string;
  /** The history nights after the snapshot, applied on top of it. */
  nights_after: string[];
  table_rows: Record<string, number>;
  duration_ms: number;
}

/** Connections loading tables at once: a load is mostly one core (its primary key), and each holds its rows. */
const LOADS_AT_ONCE = 3;

/** Runs each list of statements in order, the lists side by side on LOADS_AT_ONCE connections of `db`. */
async function sideBySide(db: Db, lists: readonly (readonly string[])[]): Promise<void> {
  const queue = [...lists];
  let failed = false;
  // settled, not raced: the warehouse is closed only once no connection is still writing to it
  const done = await Promise.allSettled(
    Array.from({ length: Math.min(LOADS_AT_ONCE, queue.length) }, async () => {
      const connection = await db.fork();
      try {
        for (let list = queue.shift(); list !== undefined && !failed; list = queue.shift())
          for (const sql of list) await connection.run(sql);
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        connection.close();
      }
    }),
  );
  const error = done.find((d) => d.status === "rejected");
  if (error) throw error.reason;
}

/**
 * Builds a new warehouse at `target` from the snapshot of `night` and the history's partitions of the nights after
 * it: the snapshot's tables; the raw rows, snapshots and lifecycle candidates of every later night; the transitions
 * those snapshots record; the latest night's kept repo names and classifications (history/kept/).
 */
export async function restoreWarehouse(options: {
  stateRoot: string;
  night: string;
  historyRoot: string;
  target: string;
  logger: Logger;
  /** Only the raw tables, what collecting reads; the warehouse is marked so (warehouse-scope.ts). */
  rawOnly?: boolean;
}): Promise<RestoreReport> {
  const { stateRoot, night, historyRoot: root, target, logger } = options;
  const rawOnly = options.rawOnly === true;
  const started = performance.now();
  if (existsSync(target)) {
    throw new AppError(`Refusing to restore into ${target}: the file exists.`, {
      hint: "Move the old warehouse away first.",
      stage: "state",
    });
  }
  const manifest = await readSnapshotManifest(stateRoot, night);
  const temp = `${target}.${process.pid}.tmp`;
  const db = await openDb(temp);
  const after = `DATE ${sqlLiteral(night)}`;
  const nightsAfter = new Set<string>();
  const tableRows: Record<string, number> = {};
  try {
    // the tables this code defines as it defines them (a snapshot's DDL may be older), then the appended ones
    await ensureRawTables(db);
    const tables = manifest.tables.filter((t) => !rawOnly || isRawTable(t.table));
    const defined = new Set([...RAW_TABLES, ...KEPT_TABLES] as string[]);
    for (const t of tables) if (!defined.has(t.table)) await db.run(t.ddl);
    const parts = historyParts();
    const glob = (dir: string, key: string) => sqlLiteral(path.join(root, dir, `${key}=*`, "data.parquet"));
    const hasNights = async (dir: string, key: string) => {
      const names = await readdir(path.join(root, dir)).catch(() => [] as string[]);
      const later = names
        .filter((n) => n.startsWith(`${key}=`) && existsSync(path.join(root, dir, n, "data.parquet")))
        .map((n) => n.slice(key.length + 1))
        .filter((d) => d > night);
      // the nights after the snapshot are its snapshots' (a raw-only restore has none: its raw tables')
      if (dir === "snapshots" || (rawOnly && dir.startsWith("raw/")))
        for (const d of later) nightsAfter.add(d);
      return later.length > 0;
    };
    // each table's snapshot rows, then (a raw table) its nights after the snapshot: the tables side by side
    const rawNights = new Map<string, string>();
    for (const part of parts.filter((p) => p.key === "run_date")) {
      if (!(await hasNights(part.dir, part.key))) continue;
      rawNights.set(
        path.posix.basename(part.dir),
        `INSERT INTO ${path.posix.basename(part.dir)} BY NAME SELECT * FROM read_parquet(${glob(part.dir, part.key)}, hive_partitioning = true, union_by_name = true)
         WHERE run_date > ${after} ORDER BY run_date`,
      );
    }
    // the latest night's names and classifications replace the snapshot's below: theirs are not loaded at all
    const replaced = new Set<string>(
      rawOnly
        ? []
        : KEPT_SNAPSHOTS.filter((table) => existsSync(path.join(root, "kept", table, "data.parquet"))),
    );
    // the largest first, so the last to start is a small one
    const loads = [...tables]
      .sort((a, b) => b.rows - a.rows)
      .filter((t) => !replaced.has(t.table))
      .map((t) => {
        // a monthly table's files (none when it was empty), or the table's one file
        const files = (t.files?.map((f) => f.name) ?? [`${t.table}.parquet`]).map((name) =>
          sqlLiteral(path.join(stateRoot, SNAPSHOT_DIR, night, name)),
        );
        return [
          ...(files.length > 0
            ? [`INSERT INTO ${t.table} BY NAME SELECT * FROM read_parquet([${files.join(", ")}])`]
            : []),
          ...(rawNights.has(t.table) ? [rawNights.get(t.table) as string] : []),
        ];
      });
    for (const [table, sql] of rawNights)
      if (!manifest.tables.some((t) => t.table === table)) loads.push([sql]);
    await sideBySide(db, loads);
    if (rawOnly) await markRawOnly(db, night);
    else await restoreScored(db, { night, root, nightsAfter, replaced, hasNights, glob });
    for (const t of tables) {
      const [row] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${t.table}`);
      tableRows[t.table] = row?.n ?? 0;
    }
    await db.run("CHECKPOINT");
  } catch (error) {
    db.close();
    await rm(temp, { force: true });
    await rm(`${temp}.wal`, { force: true });
    throw error;
  }
  db.close();
  await commitTempFile(temp, target);
  const report: RestoreReport = {
    snapshot: night,
    nights_after: [...nightsAfter].sort(),
    table_rows: tableRows,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("state: warehouse restored from its snapshot", {
    snapshot: night,
    nights_after: report.nights_after.length,
    ...(rawOnly ? { raw_only: true } : {}),
    duration_ms: report.duration_ms,
  });
  return report;
}

/**
 * A whole restore's tables beyond the raw ones and the snapshot's files: the snapshots of the nights after it and the
 * transitions and candidates that follow from them, then the latest night's names and classifications.
 */
async function restoreScored(
  db: Db,
  at: {
    night: string;
    root: string;
    /** Filled by hasNights("snapshots", …). */
    nightsAfter: Set<string>;
    replaced: ReadonlySet<string>;
    hasNights: (dir: string, key: string) => Promise<boolean>;
    /** A history part's files, as a SQL literal. */
    glob: (dir: string, key: string) => string;
  },
): Promise<void> {
  const { night, root, nightsAfter, replaced, hasNights, glob } = at;
  const after = `DATE ${sqlLiteral(night)}`;
  const snapshotsAfter = await hasNights("snapshots", "date");
  const last = [...nightsAfter].sort().at(-1) ?? night;
  const keep = `date > DATE ${sqlLiteral(last)} - ${SNAPSHOT_DAYS}`;
  if (snapshotsAfter) {
    await db.run(
      `INSERT INTO snapshots BY NAME SELECT * FROM read_parquet(${glob("snapshots", "date")}, hive_partitioning = true)
       WHERE date > ${after} AND ${keep} ORDER BY date, node_id`,
    );
    // each repository's latest snapshot up to the snapshot's night gives its first later snapshot its predecessor:
    // one row a repository, not the 90 nights before (a year's history sorts no more than a month's)
    await db.run(
      insertTransitions(
        `(SELECT node_id, full_name, date, lifecycle_stage FROM snapshots WHERE date > ${after}
          UNION ALL
          SELECT node_id, arg_max(full_name, date), max(date), arg_max(lifecycle_stage, date)
          FROM snapshots WHERE date <= ${after} GROUP BY node_id)`,
        after,
      ),
    );
  }
  // the nights past the retention: those of the nights after the snapshot, and those a carried month still holds
  await db.run(`DELETE FROM snapshots WHERE NOT (${keep})`);
  if (await hasNights("lifecycle", "date")) {
    await db.run(
      `INSERT INTO lifecycle_candidates BY NAME SELECT * FROM read_parquet(${glob("lifecycle", "date")}, hive_partitioning = true)
       WHERE date > ${after} AND ${keep} ORDER BY date, node_id`,
    );
    // what scoring the latest night left of them
    await retainCandidatesAsOfLatest(db);
  }
  // the latest night's names and classifications, as rebuildWarehouse takes them
  for (const table of replaced) {
    const file = path.join(root, "kept", table, "data.parquet");
    await db.run(`INSERT INTO ${table} BY NAME SELECT * FROM read_parquet(${sqlLiteral(file)})`);
  }
}
