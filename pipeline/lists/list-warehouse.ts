// A list's replayed history (replay.ts, run into the warehouse file) made into the warehouse a nightly leaves, so that
// publish renders it unchanged: every night's snapshot and GitHub release as the list recorded them, the history's
// Parquet files night by night, then the nightly's own transforms the replay does not run, on the last night.
import path from "node:path";
import { type Db, runSqlFile } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { writeHistory } from "../history.ts";
import { foldRepoNames, runTransform, setScoreVariables, TRANSFORMS } from "../score.ts";
import { LISTS_SQL } from "./history-input.ts";
import { REPLAYED_TRANSFORMS } from "./replay.ts";

export interface ListWarehouseReport {
  nights: number;
  first: string;
  last: string;
  /** Projects the release lists: those the list recorded on its last date. */
  projects: number;
  duration_ms: number;
}

/**
 * Turns the database of a finished replayList (of `dates`, oldest first) into a nightly warehouse as of the last date,
 * writing every night's history under `historyRoot` (<state>/history).
 */
export async function buildListWarehouse(options: {
  db: Db;
  dates: readonly string[];
  historyRoot: string;
  logger: Logger;
}): Promise<ListWarehouseReport> {
  const { db, dates, historyRoot, logger } = options;
  const started = performance.now();
  const last = dates.at(-1);
  if (!last) throw new Error("buildListWarehouse: the replay holds no night");
  await setScoreVariables(db, last);
  // the warehouse keeps every night of the list, not a nightly's last SNAPSHOT_DAYS: a list's history is years of a
  // few hundred projects (79,000 rows for best-of-ml-python's), and project pages chart all of it
  await db.run(`SET VARIABLE snapshot_days = ${daysBetween(dates[0] as string, last) + 1};`);
  await runSqlFile(db, path.join(LISTS_SQL, "warehouse_raw_github_repos.sql"));
  await runSqlFile(db, path.join(LISTS_SQL, "warehouse_snapshots.sql"));
  // the nights before the last, written as the nightly writes each (no warehouse snapshot: the list rebuilds it)
  for (const night of dates.slice(0, -1))
    await writeHistory({ db, root: historyRoot, runDate: night, logger, snapshot: false });
  await foldRepoNames(db, last);
  // the last night runs every transform the replay did not, in TRANSFORMS' order; feat_tracked among them, from the
  // names folded night by night
  for (const table of TRANSFORMS) if (!REPLAYED_TRANSFORMS.has(table)) await runTransform(db, table);
  await writeHistory({ db, root: historyRoot, runDate: last, logger, snapshot: false });
  const [counted] = await db.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM projects");
  const report = {
    nights: dates.length,
    first: dates[0] as string,
    last,
    projects: counted?.n ?? 0,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("list: warehouse built", { ...report });
  return report;
}

/** Days from one YYYY-MM-DD to another. */
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
