// The score stage: runs the .sql transforms in order over the warehouse (raw_* → feat_* → score_*),
// with the methodology constants and the run date handed in as DuckDB variables.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "../core/db.ts";
import { runSqlFile, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { TAXONOMY_FILE } from "./classify.ts";
import { CONSTANTS, constantsSql } from "./methodology.ts";
import { TRACKED_FOR_DAYS } from "./sources/github/tracked.ts";

const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "sql");

export { TAXONOMY_FILE };
/** The curated labs (ds_lab_projects.sql), beside the taxonomy. */
export const LABS_FILE = path.join(path.dirname(TAXONOMY_FILE), "labs.json");

/** The raw tables every transform may read; created empty when no source has written them yet. */
export const RAW_TABLES = [
  "raw_github_repos",
  "raw_github_gone",
  "raw_github_activity",
  "raw_github_stars",
  "raw_pypi_projects",
  "raw_pypi_downloads",
  "raw_npm_packages",
  "raw_npm_downloads",
  "raw_dockerhub_repos",
  "raw_hf_models",
  "raw_hn_posts",
  "raw_arxiv_papers",
] as const;

const RAW_TABLE_SET: ReadonlySet<string> = new Set(RAW_TABLES);
/** Whether `table` is one of RAW_TABLES. */
export const isRawTable = (table: string): table is (typeof RAW_TABLES)[number] => RAW_TABLE_SET.has(table);

/** The transforms, in the order they run; each file is named after the table it creates. */
export const TRANSFORMS = [
  "feat_tracked",
  "feat_packages",
  "feat_repos",
  "classify_input",
  "feat_classification",
  "classifications",
  "score_components",
  "score_explanations",
  "score_quality",
  "alternatives",
  "feat_stars",
  "score_lifecycle",
  "transitions",
  "lifecycle_candidates",
  "projects",
  "snapshots",
  "contributors",
  "ds_contributors_trending",
  "ds_velocity",
  "ds_dependencies_trending",
  "releases",
  "packages",
  "posts",
  "papers",
  "ds_lab_projects",
  "labs",
  "ds_whats_new",
  "ds_briefings",
  "ds_status",
] as const;

/** Tables kept across nights (appended to night by night, not rebuilt): DDL in pipeline/sql/kept/. */
export const KEPT_TABLES = [
  "repo_names",
  "classifications",
  "transitions",
  "lifecycle_candidates",
  "snapshots",
  "shard_carried",
] as const;

/** Nights of snapshots the warehouse keeps (the history's Parquet files keep every night). */
export const SNAPSHOT_DAYS = 90;
/**
 * The last nights of lifecycle candidates the warehouse keeps whole; of older ones, only what score_lifecycle can
 * still read (kept/lifecycle_candidates.retain.sql). So re-scoring one of the last CANDIDATE_NIGHTS -
 * lifecycle_confirm_days daily nights reads the candidates its first run read.
 */
export const CANDIDATE_NIGHTS = 7;

export interface ScoreReport {
  run_date: string;
  repos: number;
  stale: number;
  by_tier: Record<string, number>;
  /** Wall time of each table built, in order. */
  tables_ms: Record<string, number>;
  duration_ms: number;
}

export async function ensureRawTables(db: Db): Promise<void> {
  for (const table of RAW_TABLES) await runSqlFile(db, path.join(SQL_DIR, "raw", `${table}.sql`));
  for (const table of KEPT_TABLES) await runSqlFile(db, path.join(SQL_DIR, "kept", `${table}.sql`));
}

/**
 * What the classification is computed by: the taxonomy and the SQL that applies it. A change of either reclassifies
 * every repository; otherwise a night classifies only those whose inputs changed (kept/classifications.sql).
 */
export async function classifierVersion(taxonomyFile = TAXONOMY_FILE): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [taxonomyFile, path.join(SQL_DIR, "feat_classification.sql")])
    hash.update(await readFile(file));
  return hash.digest("hex").slice(0, 16);
}

/** Hands the methodology's constants and the run's facts to the .sql files as DuckDB variables. */
export async function setScoreVariables(
  db: Db,
  runDate: string,
  taxonomyFile = TAXONOMY_FILE,
): Promise<void> {
  await db.run(
    [
      constantsSql(CONSTANTS),
      `SET VARIABLE classifier = ${sqlLiteral(await classifierVersion(taxonomyFile))};`,
      `SET VARIABLE run_date = DATE ${sqlLiteral(runDate)};`,
      `SET VARIABLE tracked_for_days = ${TRACKED_FOR_DAYS};`,
      `SET VARIABLE snapshot_days = ${SNAPSHOT_DAYS};`,
      `SET VARIABLE candidate_nights = ${CANDIDATE_NIGHTS};`,
    ].join("\n"),
  );
}

/** kept/lifecycle_candidates.retain.sql, which retainCandidates runs. */
export const RETAIN_CANDIDATES_FILE = path.join(SQL_DIR, "kept", "lifecycle_candidates.retain.sql");

/**
 * Drops the lifecycle candidates no later night reads (kept/lifecycle_candidates.retain.sql), as of the run date the
 * variables were set for: after each night's candidates, and on a restored or rebuilt warehouse.
 */
export async function retainCandidates(db: Db): Promise<void> {
  await runSqlFile(db, RETAIN_CANDIDATES_FILE);
}

/** retainCandidates as of the latest night the candidates hold: what scoring that night left (a restore, a rebuild). */
export async function retainCandidatesAsOfLatest(db: Db): Promise<void> {
  const [latest] = await db.all<{ night: string | null }>(
    "SELECT max(date)::VARCHAR AS night FROM lifecycle_candidates",
  );
  if (!latest?.night) return;
  await setScoreVariables(db, latest.night);
  await retainCandidates(db);
}

/** A transform's file, pipeline/sql/<table>.sql, and the placeholders it is run with (runTransform, readSqlFile). */
export function transformFile(table: string, taxonomyFile = TAXONOMY_FILE) {
  return {
    file: path.join(SQL_DIR, `${table}.sql`),
    vars: {
      taxonomy_file: sqlLiteral(taxonomyFile),
      labs_file: sqlLiteral(LABS_FILE),
      tracked_for_days: String(TRACKED_FOR_DAYS),
    },
  };
}

/** Runs one transform, pipeline/sql/<table>.sql, with the variables set by setScoreVariables. */
export async function runTransform(db: Db, table: string, taxonomyFile = TAXONOMY_FILE): Promise<void> {
  const { file, vars } = transformFile(table, taxonomyFile);
  await runSqlFile(db, file, vars);
}

/**
 * Folds the nights of raw_github_repos that repo_names has not seen yet, up to the run date, in order — and the run
 * date itself again, since a resumed collect may have added rows to it. Scoring an earlier night than the latest
 * folded (a re-score of the past) starts the names over from the first night. Returns the nights folded.
 */
export async function foldRepoNames(db: Db, runDate: string): Promise<string[]> {
  const [ahead] = await db.all<{ n: number }>(
    "SELECT count(*) AS n FROM repo_names WHERE last_seen > $1::DATE",
    [runDate],
  );
  if ((ahead?.n ?? 0) > 0) await db.run("DELETE FROM repo_names");
  const nights = await db.all<{ night: string }>(
    `SELECT DISTINCT run_date::VARCHAR AS night FROM raw_github_repos
     WHERE run_date <= $1::DATE
       AND (run_date > (SELECT coalesce(max(last_seen), DATE '1970-01-01') FROM repo_names) OR run_date = $1::DATE)
     ORDER BY night`,
    [runDate],
  );
  for (const { night } of nights) {
    await db.run(`SET VARIABLE fold_date = DATE ${sqlLiteral(night)}`);
    await runTransform(db, "repo_names");
  }
  return nights.map((n) => n.night);
}

export async function score(options: {
  db: Db;
  runDate: string;
  logger: Logger;
  taxonomyFile?: string;
  /**
   * Build only what the night's history needs (every table up to `snapshots`), not the datasets and public
   * tables after it: for replayed nights whose releases nobody reads.
   */
  historyOnly?: boolean;
}): Promise<ScoreReport> {
  const { db, runDate, logger } = options;
  const started = performance.now();
  await ensureRawTables(db);
  await setScoreVariables(db, runDate, options.taxonomyFile);
  await foldRepoNames(db, runDate);
  const tables = options.historyOnly ? TRANSFORMS.slice(0, TRANSFORMS.indexOf("snapshots") + 1) : TRANSFORMS;
  const tablesMs: Record<string, number> = {};
  for (const table of tables) {
    const t = performance.now();
    await runTransform(db, table, options.taxonomyFile);
    if (table === "lifecycle_candidates") await retainCandidates(db);
    tablesMs[table] = Math.round(performance.now() - t);
    logger.debug("score: table built", { table, ms: tablesMs[table] });
  }
  const [totals] = await db.all<{ repos: number; stale: number }>(
    "SELECT count(*) AS repos, count(*) FILTER (WHERE is_stale) AS stale FROM score_quality",
  );
  if (!totals || totals.repos === 0) {
    throw new AppError(
      `Scoring ${runDate} produced no repositories: the warehouse has no GitHub rows up to that date.`,
      {
        hint: "Run `projintel collect` first (or `projintel nightly`), and check its report for a failed GitHub source.",
        stage: "score",
      },
    );
  }
  const tiers = await db.all<{ quality_tier: string; n: number }>(
    "SELECT quality_tier, count(*) AS n FROM score_quality GROUP BY ALL ORDER BY ALL",
  );
  const report: ScoreReport = {
    run_date: runDate,
    repos: totals.repos,
    stale: totals.stale,
    by_tier: Object.fromEntries(tiers.map((t) => [t.quality_tier, t.n])),
    tables_ms: tablesMs,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("score: done", { ...report });
  return report;
}
