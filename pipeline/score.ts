// The score stage: runs the .sql transforms in order over the warehouse (raw_* → feat_* → score_*),
// with the methodology constants and the run date handed in as DuckDB variables.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./core/db.ts";
import { runSqlFile, sqlLiteral } from "./core/db.ts";
import { AppError } from "./core/errors.ts";
import type { Logger } from "./core/log.ts";
import { CONSTANTS, constantsSql } from "./methodology.ts";
import { TRACKED_FOR_DAYS } from "./sources/github/index.ts";

const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "sql");
export const TAXONOMY_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "data",
  "taxonomy.json",
);

/** The raw tables every transform may read; created empty when no source has written them yet. */
export const RAW_TABLES = [
  "raw_github_repos",
  "raw_github_gone",
  "raw_pypi_projects",
  "raw_pypi_downloads",
] as const;

/** The transforms, in the order they run; each file is named after the table it creates. */
export const TRANSFORMS = [
  "feat_tracked",
  "feat_repos",
  "feat_classification",
  "score_components",
  "score_quality",
] as const;

export interface ScoreReport {
  run_date: string;
  repos: number;
  stale: number;
  by_tier: Record<string, number>;
  duration_ms: number;
}

export async function ensureRawTables(db: Db): Promise<void> {
  for (const table of RAW_TABLES) await runSqlFile(db, path.join(SQL_DIR, "raw", `${table}.sql`));
}

export async function score(options: {
  db: Db;
  runDate: string;
  logger: Logger;
  taxonomyFile?: string;
}): Promise<ScoreReport> {
  const { db, runDate, logger } = options;
  const started = performance.now();
  await ensureRawTables(db);
  await db.run(`${constantsSql(CONSTANTS)}\nSET VARIABLE run_date = DATE ${sqlLiteral(runDate)};`);
  const vars = {
    taxonomy_file: sqlLiteral(options.taxonomyFile ?? TAXONOMY_FILE),
    tracked_for_days: String(TRACKED_FOR_DAYS),
  };
  for (const table of TRANSFORMS) {
    const t = performance.now();
    await runSqlFile(db, path.join(SQL_DIR, `${table}.sql`), vars);
    logger.debug("score: table built", { table, ms: Math.round(performance.now() - t) });
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
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("score: done", { ...report });
  return report;
}
