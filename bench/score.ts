// Scoring at scale: `projintel score` over a warehouse of 220,000 repositories holding 400 nights of raw rows
// (bench/score-world.sql, score-night.sql and score-kept.sql build it), with 90 nights of snapshots and the transitions so far. Two warm-up
// nights are scored first; the figure is the median wall time and peak memory of the next three nights, each a
// separate process with the warehouse's default memory limit. The night's history files give the size a day.
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isoDay } from "../core/clock.ts";
import { openDb, runSqlFile, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { writeHistory } from "../pipeline/history.ts";
import { publishPublicDb } from "../pipeline/public-db.ts";
import { ensureRawTables, RAW_TABLES, runTransform, TAXONOMY_FILE } from "../pipeline/score.ts";
import { type Measurement, measureCommand, median } from "./measure.ts";
import { CLI } from "./pipeline.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const DAY_MS = 86_400_000;
export const LAST_NIGHT = "2026-11-20";
const WARM_UP = 2;
const MEASURED = 3;

export const dayBefore = (day: string, n: number) => isoDay(new Date(Date.parse(day) - n * DAY_MS));

/**
 * Builds the synthetic warehouse night by night, as nightly loads append (so raw tables lie in run_date order and
 * their zone maps prune), folding each night's names as the score stage does; returns the seconds it took.
 */
export async function buildWarehouse(file: string, repos: number, nights: number): Promise<number> {
  const started = performance.now();
  const db = await openDb(file, { settings: { memory_limit: "4GB", preserve_insertion_order: "true" } });
  const sql = (name: string) => path.join(ROOT, "bench", `${name}.sql`);
  const end = dayBefore(LAST_NIGHT, -1);
  const vars = {
    repos: String(repos),
    nights: String(nights),
    last_night: sqlLiteral(end),
    snapshot_nights: "90",
    taxonomy_file: sqlLiteral(TAXONOMY_FILE),
  };
  try {
    // Loaded without primary keys: scoring never reads them, and indexing 88 million keys would dominate the set-up.
    for (const table of RAW_TABLES) {
      const ddl = await readFile(path.join(ROOT, "pipeline", "sql", "raw", `${table}.sql`), "utf8");
      await db.run(ddl.replace(/,\s*PRIMARY KEY \([^)]*\)/, ""));
    }
    await ensureRawTables(db);
    await runSqlFile(db, sql("score-world"), vars);
    for (let n = 0; n < nights; n++) {
      const day = dayBefore(end, nights - n);
      await db.run("BEGIN TRANSACTION");
      await runSqlFile(db, sql("score-night"), { ...vars, n: String(n), run_date: sqlLiteral(day) });
      await db.run(`SET VARIABLE fold_date = DATE ${sqlLiteral(day)}`);
      await runTransform(db, "repo_names");
      await db.run("COMMIT");
      if (n % 50 === 49) process.stderr.write(`score bench: ${n + 1} of ${nights} nights built\n`);
    }
    await runSqlFile(db, sql("score-kept"), vars);
    await db.run("CHECKPOINT");
  } finally {
    db.close();
  }
  return Math.round((performance.now() - started) / 1000);
}

export async function benchScore(repos: number, nights = 400) {
  const state = await mkdtemp(path.join(os.tmpdir(), "projintel-score-"));
  try {
    const warehouse = path.join(state, "warehouse.duckdb");
    // BENCH_SCORE_WAREHOUSE keeps the synthetic warehouse between runs (it takes minutes to build at full size)
    const kept = process.env.BENCH_SCORE_WAREHOUSE;
    let setup_s = 0;
    if (kept && existsSync(kept)) await copyFile(kept, warehouse);
    else {
      setup_s = await buildWarehouse(warehouse, repos, nights);
      if (kept) await copyFile(warehouse, kept);
    }
    // the score stage alone; the public database is measured once below
    const score = (day: string) =>
      measureCommand(process.execPath, [
        CLI,
        "score",
        "--date",
        day,
        "--state-dir",
        state,
        "--log-level",
        "warn",
        "--no-public-db",
      ]);
    const nightsToScore = Array.from({ length: WARM_UP + MEASURED }, (_, k) =>
      dayBefore(LAST_NIGHT, WARM_UP + MEASURED - 1 - k),
    );
    const runs: Array<Measurement & { night: string }> = [];
    for (const night of nightsToScore) {
      const run = await score(night);
      if (run.exit_code !== 0) throw new Error(`projintel score --date ${night} exited ${run.exit_code}`);
      runs.push({ night, ...run });
    }
    const measured = runs.slice(WARM_UP);
    const db = await openDb(warehouse);
    let history: Awaited<ReturnType<typeof writeHistory>>;
    let publicDb: Awaited<ReturnType<typeof publishPublicDb>>;
    let facts: Record<string, number>;
    try {
      history = await writeHistory({
        db,
        root: path.join(state, "history"),
        runDate: LAST_NIGHT,
        logger: silentLogger,
      });
      publicDb = await publishPublicDb({ db, stateRoot: state, runDate: LAST_NIGHT });
      const [row] = await db.all<Record<string, number>>(
        `SELECT (SELECT count(*) FROM projects) AS projects, (SELECT count(*) FROM raw_github_repos) AS raw_github_rows,
           (SELECT count(DISTINCT run_date) FROM raw_github_repos) AS nights, (SELECT count(*) FROM snapshots) AS snapshot_rows,
           (SELECT count(*) FROM transitions) AS transition_rows`,
      );
      facts = Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
    } finally {
      db.close();
    }
    return {
      repos,
      history_nights: nights,
      setup_s,
      warehouse: facts,
      nights: runs,
      median_wall_ms: median(measured.map((r) => r.wall_ms)),
      median_peak_rss_mib: median(measured.map((r) => r.peak_rss_mib)),
      history_bytes_per_night: history.bytes,
      history_mib_per_night: Math.round((history.bytes / 1_048_576) * 10) / 10,
      history_files_per_night: history.files,
      public_db: { ms: publicDb.duration_ms, bytes: publicDb.bytes, tables: publicDb.tables },
    };
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}
