// A list's history given the descriptions it lacks from a list export of the same projects (`projintel demo --list
// FILE --describe EXPORT`): a history such as best-of's shared one keeps figures only, so a classification would read
// names alone; an export (best-of's <date>_projects.csv) has each project's description. See list_describe.sql.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Db, openDb, runSqlFile, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";
import { formatOf, LISTS_SQL } from "./history-input.ts";

export interface DescribedHistory {
  /** The copy of the history with the descriptions, in the history's own format (CSV or JSON lines). */
  file: string;
  /** Rows given a description, of all the history's rows. */
  described: number;
  rows: number;
}

/** Columns the export must have. */
const EXPORT_COLUMNS = ["github_id", "description"] as const;

/** DuckDB's reader of a history or export file, every value as text so that it is copied as written. */
const readerOf = (file: string, format: "csv" | "jsonl") =>
  format === "jsonl"
    ? `read_json(${sqlLiteral(file)}, format = 'newline_delimited')`
    : `read_csv(${sqlLiteral(file)}, header = true, all_varchar = true)`;

/**
 * Writes `history` with a description on each row that lacks one, from `exportFile`, into a file of `outDir` (in the
 * history's format): the copy the replay then reads instead.
 */
export async function describeHistory(options: {
  history: string;
  exportFile: string;
  /** A folder to write the copy in, made if missing. */
  outDir: string;
}): Promise<DescribedHistory> {
  const { history, exportFile, outDir } = options;
  const historyFormat = (await formatOf(history)).format;
  if (historyFormat === "exports") {
    throw new AppError(
      `--describe ${exportFile}: ${history} is a folder of best-of exports, which describe their projects.`,
      {
        hint: "Leave out --describe for a folder of exports; it gives descriptions to one history file that has none.",
      },
    );
  }
  const exportFormat = (await formatOf(exportFile)).format;
  if (exportFormat === "exports") {
    throw new AppError(`--describe ${exportFile} is a folder: it takes one list export.`, {
      hint: "Pass one best-of <date>_projects.csv (or rate's CSV or JSON lines input) with github_id and description.",
    });
  }
  await mkdir(outDir, { recursive: true });
  const out = path.join(outDir, `history.${historyFormat === "jsonl" ? "jsonl" : "csv"}`);
  const db = await openDb(":memory:", { settings: { threads: "1" } });
  try {
    const exportReader = readerOf(exportFile, exportFormat);
    await requireColumns(db, exportFile, exportReader);
    await runSqlFile(db, path.join(LISTS_SQL, "list_describe.sql"), {
      history: readerOf(history, historyFormat),
      describe: exportReader,
      out: sqlLiteral(out),
      options: historyFormat === "jsonl" ? "(FORMAT json)" : "(HEADER)",
    });
    const [counts] = await db.all<{ described: number; rows: number }>(
      `SELECT count(*) FILTER (WHERE nullif(trim(description), '') IS NOT NULL)::INTEGER AS described,
         count(*)::INTEGER AS rows
       FROM described_history`,
    );
    return { file: out, described: counts?.described ?? 0, rows: counts?.rows ?? 0 };
  } finally {
    db.close();
  }
}

async function requireColumns(db: Db, file: string, reader: string): Promise<void> {
  let columns: string[];
  try {
    columns = (await db.all<{ column_name: string }>(`DESCRIBE SELECT * FROM ${reader}`)).map(
      (c) => c.column_name,
    );
  } catch (error) {
    throw new AppError(`Cannot read --describe ${file}: ${(error as Error).message}`, {
      hint: "Pass a list export: CSV (a header line with github_id and description) or JSON lines.",
    });
  }
  const missing = EXPORT_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    throw new AppError(`--describe ${file} has no ${missing.join(" or ")} column.`, {
      hint: "Pass a list export of the same projects with github_id and description, such as best-of's <date>_projects.csv.",
    });
  }
}
