// Test harness for the score SQL alone: an in-memory feat_repos (score-feat-repos.sql) filled with given rows,
// then score_components, score_explanations and score_quality run over it with the methodology constants.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, runSqlFile, sqlLiteral } from "../../core/db.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const SQL_DIR = path.join(here, "..", "sql");
export const SCORE_SQL = ["score_components", "score_explanations", "score_quality"] as const;

/** A feat_repos row: column name to value (null, number, bigint, string, boolean, Date or a list). */
export type FeatRow = Record<string, unknown>;

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : `'${value}'::DOUBLE`;
  if (value instanceof Date) return `TIMESTAMP ${sqlLiteral(value.toISOString().slice(0, 19))}`;
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  return sqlLiteral(String(value));
}

/** Replaces feat_repos (and a fixed classification of each) with the given rows. */
export async function loadFeatRepos(db: Db, rows: readonly FeatRow[]): Promise<void> {
  await runSqlFile(db, path.join(here, "score-feat-repos.sql"));
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const values = rows.map((row) => `(${columns.map((c) => literal(row[c])).join(", ")})`);
  await db.run(`INSERT INTO feat_repos (${columns.join(", ")}) VALUES ${values.join(",\n")}`);
  await db.run(
    "INSERT INTO classifications SELECT node_id, 0, 'test', 'rag', NULL, 'orchestration', 'test' FROM feat_repos",
  );
}

export { setScoreVariables } from "../score.ts";

/** Runs the three score files over feat_repos (after setScoreVariables). */
export async function runScoreSql(db: Db): Promise<void> {
  for (const table of SCORE_SQL) await runSqlFile(db, path.join(SQL_DIR, `${table}.sql`));
}
