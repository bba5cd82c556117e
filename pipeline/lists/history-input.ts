// Reads a list's dated history into DuckDB for the replay: one CSV (gzipped or not) or JSON lines file with a
// snapshot_date column, or a folder of best-of-generator `<date>_projects.csv` exports. DuckDB reads the files
// itself (pipeline/sql/lists/history_*.sql); list_history.sql then gives each project one history across renames.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, runSqlFile, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";
import { CONSTANTS, constantsSql } from "../methodology.ts";
import { BEST_OF_COLUMNS, rateRowSchema } from "./rate-input.ts";

export const LISTS_SQL = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "sql", "lists");

export type HistoryFormat = "csv" | "jsonl" | "exports";

/** A row set aside: the file, its line (1 = the header) and why. */
export interface HistoryProblem {
  file: string;
  line: number | null;
  reason: string;
}

export interface LoadedHistory {
  format: HistoryFormat;
  /** The snapshot dates, oldest first (YYYY-MM-DD). */
  dates: string[];
  projects: number;
  rows: number;
  problems: HistoryProblem[];
}

/** An export's name in best-of-generator's history/ folder. */
const EXPORT_NAME = /^\d{4}-\d{2}-\d{2}_projects\.csv$/;
/** File names read as JSON lines; anything else is read as CSV (gzipped when it ends in .gz). */
const JSON_LINES = /\.(jsonl|ndjson|json)(\.gz)?$/i;

/** The columns the replay reads besides the rate mapping's, with the type each is read as. */
const HISTORY_COLUMNS: Record<string, string> = {
  snapshot_date: "DATE",
  github_id: "VARCHAR",
  updated_github_id: "VARCHAR",
  created_at: "TIMESTAMPTZ",
  commit_count: "DOUBLE",
  star_count: "DOUBLE",
};

type RateField = keyof typeof rateRowSchema.shape;
const accepts = (field: RateField, value: unknown) => rateRowSchema.shape[field].safeParse(value).success;
const kindOf = (field: RateField) =>
  accepts(field, 0) ? "count" : accepts(field, "2020-01-01") && !accepts(field, "x") ? "time" : "text";
const TYPE_OF_KIND = { count: "DOUBLE", time: "TIMESTAMPTZ", text: "VARCHAR" } as const;

/** Every column read, best-of name -> DuckDB type: the rate mapping's (BEST_OF_COLUMNS) and the history's own. */
function columnsRead(): Record<string, string> {
  const mapped = Object.entries(BEST_OF_COLUMNS).map(([column, field]) => [
    column,
    TYPE_OF_KIND[kindOf(field)],
  ]);
  return { ...Object.fromEntries(mapped), ...HISTORY_COLUMNS };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The view of each project's row of a date as rate's input (one JSON object of pipeline/lists/rate-input.ts's fields),
 * generated from rate's own best-of mapping (BEST_OF_COLUMNS) so that a list's history is read exactly as `rate`
 * reads one date's export: the name is the one the project had that date (updated_github_id when the list gave it).
 * `texts` hashes the row's text fields (the name and every text the mapping reads), which is all a classification
 * can read: list_nights.sql classifies each project's rows once per distinct texts.
 */
function rateRowsViewSql(): string {
  const fields = Object.entries(BEST_OF_COLUMNS)
    .filter(([, field]) => field !== "full_name")
    .map(([column, field]) => {
      const kind = kindOf(field);
      const value =
        kind === "count"
          ? `CAST(round(${quoted(column)}) AS BIGINT)`
          : kind === "time"
            ? `CAST(${quoted(column)} AS TIMESTAMP)`
            : `CAST(${quoted(column)} AS VARCHAR)`;
      return `${quoted(field)} := ${value}`;
    });
  // what a classification can read of a row is text (names, packages): rows alike in it classify alike
  const texts = Object.entries(BEST_OF_COLUMNS)
    .filter(([, field]) => field !== "full_name" && kindOf(field) === "text")
    .map(([column]) => `CAST(${quoted(column)} AS VARCHAR)`);
  return `CREATE OR REPLACE VIEW list_rate_rows AS
SELECT project, snapshot_date, struct_pack(line := project, full_name := name_then, ${fields.join(", ")}) AS rate_row,
  hash(name_then, ${texts.join(", ")}) AS texts
FROM list_history;`;
}

/** How the history at `source` is read (a file's format, or a folder of exports) and its files. */
export async function formatOf(source: string): Promise<{ format: HistoryFormat; files: string[] }> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(source);
  } catch (error) {
    throw new AppError(`Cannot read ${source}: ${(error as Error).message}`, {
      hint: "Pass a history file (CSV, gzipped CSV or JSON lines with a snapshot_date column) or a folder of best-of <date>_projects.csv exports.",
    });
  }
  if (info.isDirectory()) {
    const files = (await readdir(source)).filter((f) => EXPORT_NAME.test(f)).sort();
    if (files.length === 0) {
      throw new AppError(`${source} holds no best-of export named <date>_projects.csv.`, {
        hint: "Pass best-of-generator's history/ folder (e.g. 2025-06-26_projects.csv), or one file with a snapshot_date column.",
      });
    }
    return { format: "exports", files: files.map((f) => path.join(source, f)) };
  }
  return { format: JSON_LINES.test(source) ? "jsonl" : "csv", files: [source] };
}

/** Adds the columns a history lacks (an early export has fewer; unknown) and types those read as JSON. */
async function normalise(db: Db, source: string, format: HistoryFormat): Promise<void> {
  const present = new Map(
    (await db.all<{ column_name: string; column_type: string }>("DESCRIBE list_raw")).map((c) => [
      c.column_name,
      c.column_type,
    ]),
  );
  const required =
    format === "exports" ? ["github_id", "star_count"] : ["snapshot_date", "github_id", "star_count"];
  const missing = required.filter((c) => !present.has(c));
  if (missing.length > 0) {
    throw new AppError(`${source} is not a list's history: it has no ${missing.join(", ")} column.`, {
      hint: "A history has one row per project and date: snapshot_date, then best-of-generator's columns (github_id, star_count, ...).",
    });
  }
  for (const [column, type] of Object.entries(columnsRead())) {
    const has = present.get(column);
    if (has === undefined) {
      await db.run(`ALTER TABLE list_raw ADD COLUMN ${quoted(column)} ${type}`);
    } else if (has !== type && !(type === "DOUBLE" && /INT|DECIMAL/.test(has))) {
      try {
        await db.run(
          `ALTER TABLE list_raw ALTER ${quoted(column)} TYPE ${type} USING CAST(${quoted(column)} AS ${type})`,
        );
      } catch (error) {
        throw new AppError(
          `${source}: column ${column} is not ${type} throughout: ${(error as Error).message}`,
          {
            hint: `Give ${column} as ${type === "DOUBLE" ? "a number" : type === "DATE" ? "YYYY-MM-DD" : "a date-time"} (or leave it empty) on every line.`,
          },
        );
      }
    }
  }
}

/** Reads the history at `source` into list_raw, list_projects, list_history and the view list_rate_rows. */
export async function loadHistory(db: Db, source: string): Promise<LoadedHistory> {
  const { format, files } = await formatOf(source);
  await db.run("SET TimeZone = 'UTC'");
  const sql = { csv: "history_csv.sql", jsonl: "history_jsonl.sql", exports: "history_exports.sql" }[format];
  const list = format === "exports" ? `[${files.map(sqlLiteral).join(", ")}]` : sqlLiteral(source);
  try {
    await runSqlFile(db, path.join(LISTS_SQL, sql), { source: list });
  } catch (error) {
    throw new AppError(`Cannot read ${source} as a list's history: ${(error as Error).message}`, {
      hint: "A history is CSV (a header line with snapshot_date and best-of-generator's columns), gzipped CSV, JSON lines, or a folder of best-of <date>_projects.csv exports.",
    });
  }
  const problems: HistoryProblem[] =
    format !== "csv"
      ? []
      : await db.all<HistoryProblem>(
          `SELECT s.file_path AS file, e.line::INTEGER AS line,
             coalesce(e.column_name || ': ', '') || e.error_message AS reason
           FROM reject_errors e JOIN reject_scans s USING (scan_id, file_id)
           ORDER BY file, line`,
        );
  await normalise(db, source, format);
  const [unnamed] = await db.all<{ n: number }>(
    "SELECT count(*) AS n FROM list_raw WHERE nullif(trim(github_id), '') IS NULL OR snapshot_date IS NULL",
  );
  if (unnamed && unnamed.n > 0) {
    problems.push({
      file: source,
      line: null,
      reason: `${unnamed.n} row(s) name no repository (github_id empty) or no date (snapshot_date empty): set aside`,
    });
  }
  await db.run(constantsSql(CONSTANTS));
  await runSqlFile(db, path.join(LISTS_SQL, "list_history.sql"));
  await db.run(rateRowsViewSql());
  const dates = await db.all<{ d: string }>(
    "SELECT DISTINCT snapshot_date::VARCHAR AS d FROM list_history ORDER BY d",
  );
  const [counts] = await db.all<{ projects: number; rows: number }>(
    "SELECT (SELECT count(*) FROM list_projects) AS projects, (SELECT count(*) FROM list_history) AS rows",
  );
  if (dates.length === 0) {
    throw new AppError(`${source} holds no row with a date and a repository: there is nothing to replay.`, {
      hint: "Check the file's snapshot_date and github_id columns (the lines set aside are listed above).",
    });
  }
  return {
    format,
    dates: dates.map((d) => d.d),
    projects: counts?.projects ?? 0,
    rows: counts?.rows ?? 0,
    problems,
  };
}

const constant = (name: string) => {
  const c = CONSTANTS.find((k) => k.name === name);
  if (!c) throw new Error(`no methodology constant ${name}`);
  return c.value;
};

/** The methodology's "Replaying a list's history": the rules list_history.sql and the nightly's SQL apply to one. */
export function listHistorySection() {
  return {
    summary:
      "`projintel rate FILE --history` replays a list's dated history (one row per project and date: a CSV, gzipped CSV or JSON lines file with snapshot_date, or a folder of best-of <date>_projects.csv exports) through the nightly's own SQL, each date in order as a night: the rating's mapping of a row, classification, score, star trends, momentum, lifecycle with its hysteresis, confirmation and dwell, transitions.",
    rules: [
      `Nights are the dates that exist, however far apart: a star or commit count between two counts at most ${constant("snapshot_gap_max_days")} days apart (snapshot_gap_max_days) is read off the line between them, so a window's delta is the gain scaled to the window; across a longer gap it is unknown (NULL), never read as no gain: while a project's 30-day star window is unknown, growing and launching hold as they were (a growing project stays growing, another does not become so) and fading's 'not growing' reads the stage as it was.`,
      `Confirmation and dwell count days, not nights: a new stage must have been the candidate on every night for ${constant("lifecycle_confirm_days")} days (lifecycle_confirm_days: two nights a week apart, three daily ones), and a return to the stage just left waits more than ${constant("lifecycle_min_dwell_days")} days (lifecycle_min_dwell_days).`,
      `A rename keeps one history: a row's github_id and its updated_github_id are one project, and so are two names created at the same second when one is listed only after the other's last date, starting within ${constant("rename_max_star_change") * 100}% of the stars the other ended with (rename_max_star_change: a rename the list did not record); the project is named by its latest name.`,
      "A project that leaves the list and comes back is the same project: its history resumes where it stopped, and the nights it was away have no row.",
      "A date that lists a project twice (old and new name) keeps its row with the most stars.",
      "A figure a row lacks that an earlier row of the project gave (the list could not read GitHub or a registry that week) is carried forward from it, as a night carries a repository it could not refresh: its push date or downloads are unknown that week, not gone; star and commit windows read only the counts observed, and the 90 days' commit count is never carried (below).",
      `Commits in the 30, 90 and 365 days before a date come from the history's commit_count (its change since the window's first day, read as star counts are); a single export knows only its 90-day count.`,
      "The 90 days' count is the list's own (recent_commit_count) where the list records it, never carried forward: the list leaves it empty when it is 0, so on a date where any row has the figure, a row that read its commit count and has none had no commit in 90 days (an old count carried on would keep a project that went quiet busy for ever). On a date without the figure (the list added it later), commit_count's change over 90 days counts, and failing that a last push more than 90 days before the date means none.",
    ],
  };
}
