// `projintel rate FILE --history`: replays a list's dated history through the nightly's own SQL files. Each date's rows
// become feat_repos through rate's mapping; what does not read the lifecycle before it (score, star trends) runs once
// over every date; the lifecycle (hysteresis, confirmation, dwell) and transitions run night by night, in day counts.
import path from "node:path";
import { type Db, openDb, readSqlFile, runSqlFile, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";
import {
  ensureRawTables,
  RETAIN_CANDIDATES_FILE,
  runTransform,
  setScoreVariables,
  transformFile,
} from "../score.ts";
import { LISTS_SQL, type LoadedHistory, loadHistory } from "./history-input.ts";

const RATE_SQL = path.join(LISTS_SQL, "..", "rate", "feat_repos.sql");
const lists = (name: string) => ({ file: path.join(LISTS_SQL, `${name}.sql`), vars: {} });
/** The nightly's transforms the replay runs, by table name (REPLAYED_TRANSFORMS). */
const transformed = new Set<string>();
const transform = (table: string) => {
  transformed.add(table);
  return transformFile(table);
};

/** Built empty before the first night, from the nightly's own files, so every column has the nightly's type. */
const EMPTY_FIRST = ["feat_tracked", "feat_packages", "feat_repos"] as const;
/**
 * Before the first night, in one pass: every date's rate input and star counts (list_nights), and the classification
 * of every distinct input of the history by one run of the nightly's feat_classification.sql (a repository's
 * classification reads only its own inputs and the taxonomy), kept by input hash.
 */
const ONCE = [
  lists("list_nights"),
  { file: RATE_SQL, vars: {} },
  transform("classify_input"),
  lists("list_classify_once"),
  transform("feat_classification"),
  lists("list_classify_saved"),
];
/** Each date's rows, oldest first, by rate's mapping (rate/feat_repos.sql) of that date's rate input. */
const DATE_ROWS = [lists("night_input"), { file: RATE_SQL, vars: {} }];
/**
 * Then, once: the commit windows only a history knows; the score of every night in one run of each of the nightly's
 * score_components.sql and score_quality.sql (a row's score reads only that repository as of its night, and its
 * classification: the one run's for that night's inputs, as the kept classifications hold it that night); and the
 * star trends of every night by its feat_stars.sql, STAR_NIGHTS_PER_RUN nights a run (each night moved to one common
 * day, as a trend reads only days counted from its night). Each night reads its own rows of them (list_by_night).
 */
const SCORED = [
  lists("list_scored"),
  transform("score_components"),
  transform("classify_input"),
  lists("list_quality_input"),
  transform("score_quality"),
  lists("list_quality_kept"),
  lists("list_stars_input"),
];
const STARS = [transform("feat_stars"), lists("list_stars_kept")];
const BY_NIGHT = [lists("list_by_night")];
/**
 * Nights whose star trends one run of feat_stars.sql reads: it builds about 34 days per project and night, so the
 * shared history's 190 nights at once took the replay past 1 GB and 32 at a time added about 260 MB to its peak;
 * 16 at a time add about half that, for the same time.
 */
export const STAR_NIGHTS_PER_RUN = 16;

/**
 * A night, in order: the classification of the projects whose name or packages changed (the one run's result for
 * their inputs, kept by the nightly's classifications.sql), then the history: the lifecycle stage, its transitions and
 * candidates (TRANSFORMS' order, candidates retained as the nightly retains them), and tonight's stages. (The score's
 * score_explanations is not built: nothing the replay prints reads it.)
 */
const NIGHT = [
  transform("classify_input"),
  lists("list_classify"),
  transform("classifications"),
  transform("score_lifecycle"),
  transform("transitions"),
  transform("lifecycle_candidates"),
  { file: RETAIN_CANDIDATES_FILE, vars: {} },
  lists("night_output"),
];
/**
 * After the last night: what the replay prints (list_replay), and feat_repos, score_components, score_quality and
 * feat_stars as tables of the last night's rows.
 */
const LAST = [lists("list_replay"), lists("list_last_night")];

/**
 * The nightly's transforms whose tables a finished replay leaves as of its last night: those it runs once or every
 * night, feat_repos (rate's mapping builds it) and feat_packages (built empty). feat_tracked is not among them: built
 * empty, it stays so.
 */
export const REPLAYED_TRANSFORMS: ReadonlySet<string> = new Set([
  "feat_packages",
  "feat_repos",
  ...transformed,
]);

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

type SqlFile = { file: string; vars: Record<string, string> };

/** The files' statements, read once, each file's text after the one before. */
async function script(files: readonly SqlFile[]): Promise<{ file: string; sql: string }[]> {
  return Promise.all(files.map(async ({ file, vars }) => ({ file, sql: await readSqlFile(file, vars) })));
}

async function runScript(db: Db, parts: { file: string; sql: string }[]): Promise<void> {
  for (const { file, sql } of parts) {
    try {
      await db.run(sql);
    } catch (error) {
      throw new AppError(`SQL file ${file} failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

/**
 * Replays the history at `source` into a new DuckDB (in memory, or the new file `into` to keep it for inspection);
 * the caller reads it and closes `replay.db`. One connection runs every night; each file is read once, and each
 * night is one transaction (a commit per statement costs more than the statement on a night of a few hundred rows).
 * The files that read nothing of an earlier night run once over every night before the first (a run costs little more
 * than one night's, so 190 runs of each cost most of the replay's time); only the lifecycle's chain runs each night.
 */
export async function replayList(source: string, into = ":memory:"): Promise<Replay> {
  const started = performance.now();
  // one thread: a night's tables are a few hundred rows, where DuckDB's parallelism costs more than it gains
  const db = await openDb(into, { settings: { threads: "1" } });
  try {
    const history = await loadHistory(db, source);
    await ensureRawTables(db);
    await setScoreVariables(db, history.dates.at(-1) as string);
    for (const table of EMPTY_FIRST) await runTransform(db, table);
    await runSqlFile(db, path.join(LISTS_SQL, "raw_github_repos.sql"));
    await runScript(db, await script(ONCE));
    const dateRows = await script(DATE_ROWS);
    await db.run("BEGIN TRANSACTION");
    for (const date of history.dates) {
      await db.run(`SET VARIABLE run_date = DATE ${sqlLiteral(date)}`);
      await runScript(db, dateRows);
    }
    await runScript(db, await script(SCORED));
    const stars = await script(STARS);
    for (let i = 0; i < history.dates.length; i += STAR_NIGHTS_PER_RUN) {
      const batch = history.dates.slice(i, i + STAR_NIGHTS_PER_RUN);
      await db.run(
        `SET VARIABLE list_nights_from = DATE ${sqlLiteral(batch[0] as string)}; SET VARIABLE list_nights_to = DATE ${sqlLiteral(batch.at(-1) as string)}`,
      );
      await runScript(db, stars);
    }
    await runScript(db, await script(BY_NIGHT));
    await db.run("COMMIT");
    const night = await script(NIGHT);
    for (const date of history.dates) {
      // the constants and the classifier stay; only the night changes
      await db.run(`BEGIN TRANSACTION; SET VARIABLE run_date = DATE ${sqlLiteral(date)}`);
      await runScript(db, night);
      await db.run("COMMIT");
    }
    await runScript(db, await script(LAST));
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
