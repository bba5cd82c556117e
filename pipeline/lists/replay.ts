// `projintel rate FILE --history`: replays a list's dated history night by night through the nightly's own SQL. Each
// date's rows become feat_repos through rate's mapping (pipeline/sql/rate/feat_repos.sql), then the nightly's own
// classification, score, star trends, lifecycle (hysteresis, confirmation, dwell), candidates and transitions run
// on them in order, on the dates that exist: windows and confirmation count days, not nights.
import path from "node:path";
import { type Db, openDb, runSqlFile, sqlLiteral } from "../../core/db.ts";
import { ensureRawTables, retainCandidates, runTransform, setScoreVariables } from "../score.ts";
import { LISTS_SQL, type LoadedHistory, loadHistory } from "./history-input.ts";

const RATE_SQL = path.join(LISTS_SQL, "..", "rate", "feat_repos.sql");

/** Built empty before the first night, from the nightly's own files, so every column has the nightly's type. */
const EMPTY_FIRST = ["feat_tracked", "feat_packages", "feat_repos"] as const;
/**
 * A night's classification (of the projects whose name or packages changed: none on most nights, when the two files
 * after classify_input would find nothing to do and are not run) and score; score_explanations is not built, as
 * nothing the replay prints reads it.
 */
const CLASSIFY = ["feat_classification", "classifications"] as const;
const SCORE = ["score_components", "score_quality"] as const;
/** A night's history: star trends, the lifecycle stage, its transitions and candidates (TRANSFORMS' order). */
const HISTORY = ["feat_stars", "score_lifecycle", "transitions", "lifecycle_candidates"] as const;

/** One project on one date, as `rate --history --json` prints it. */
export interface ReplayRow {
  full_name: string;
  date: string;
  lifecycle_stage: string;
  quality_score: number;
  quality_tier: string;
  stars: number | null;
  stars_7d_delta: number | null;
  stars_30d_delta: number | null;
  momentum: number | null;
}

/** A change of stage (from_stage null on a project's first night), as `rate --history --transitions` prints it. */
export interface ReplayTransition {
  full_name: string;
  date: string;
  from_stage: string | null;
  to_stage: string;
}

export interface Replay {
  db: Db;
  history: LoadedHistory;
  ms: number;
}

/**
 * Replays the history at `source` into a new DuckDB (in memory, or the new file `into` to keep it for inspection);
 * the caller reads it and closes `replay.db`.
 */
export async function replayList(source: string, into = ":memory:"): Promise<Replay> {
  const started = performance.now();
  // one thread: a night's tables are a few hundred rows, where DuckDB's parallelism costs more than it gains
  const db = await openDb(into, { settings: { threads: "1" } });
  try {
    const history = await loadHistory(db, source);
    await ensureRawTables(db);
    await setScoreVariables(db, history.dates[0] as string);
    for (const table of EMPTY_FIRST) await runTransform(db, table);
    await runSqlFile(db, path.join(LISTS_SQL, "raw_github_repos.sql"));
    for (const date of history.dates) {
      // the constants and the classifier stay; only the night changes
      await db.run(`SET VARIABLE run_date = DATE ${sqlLiteral(date)}`);
      await runSqlFile(db, path.join(LISTS_SQL, "night_input.sql"));
      await runSqlFile(db, RATE_SQL);
      await runSqlFile(db, path.join(LISTS_SQL, "night_derived.sql"));
      await runTransform(db, "classify_input");
      const [pending] = await db.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM classify_input");
      if (pending?.n) for (const table of CLASSIFY) await runTransform(db, table);
      for (const table of SCORE) await runTransform(db, table);
      for (const table of HISTORY) await runTransform(db, table);
      await retainCandidates(db);
      await runSqlFile(db, path.join(LISTS_SQL, "night_output.sql"));
    }
    return { db, history, ms: Math.round(performance.now() - started) };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Every project's row of every night, by project (its latest name) then date. */
export async function replayRows(db: Db): Promise<ReplayRow[]> {
  return db.all<ReplayRow>(
    `SELECT p.full_name, r.date::VARCHAR AS date, r.lifecycle_stage, r.quality_score, r.quality_tier, r.stars,
       r.stars_7d_delta, r.stars_30d_delta, r.momentum
     FROM list_replay r JOIN list_projects p ON r.node_id = 'line:' || p.project
     ORDER BY p.full_name, r.date`,
  );
}

/** Every change of stage, by project (its latest name) then date. */
export async function replayTransitions(db: Db): Promise<ReplayTransition[]> {
  return db.all<ReplayTransition>(
    `SELECT p.full_name, t.date::VARCHAR AS date, t.from_stage, t.to_stage
     FROM transitions t JOIN list_projects p ON t.node_id = 'line:' || p.project
     ORDER BY p.full_name, t.date`,
  );
}
