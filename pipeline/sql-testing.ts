// Test helpers for the .sql transforms: hand-made tables in an in-memory DuckDB, and a runner that sets the
// methodology constants and the run date as DuckDB variables, then runs pipeline/sql/<name>.sql files in order.
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { runTransform, setScoreVariables } from "./score.ts";

export type Cell = string | number | boolean | null | readonly Cell[];

/** A SQL literal for a test value; the column type casts it on insert (dates and timestamps as text). */
function literal(value: Cell): string {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "string") return sqlLiteral(value);
  return String(value);
}

/**
 * Creates `table` with `columns` ("name TYPE, …") and inserts `rows`; a column a row leaves out is NULL.
 * Replaces any table of that name, so a test can restate one table and keep the others.
 */
export async function createTable(
  db: Db,
  table: string,
  columns: string,
  rows: readonly Record<string, Cell>[],
): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE ${table} (${columns})`);
  for (const row of rows) {
    const names = Object.keys(row);
    await db.run(
      `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map((n) => literal(row[n] ?? null)).join(", ")})`,
    );
  }
}

/** Runs pipeline/sql/<name>.sql for each name, in order, as `projintel score` would for `runDate`. */
export async function runTransforms(db: Db, names: readonly string[], runDate: string): Promise<void> {
  await setScoreVariables(db, runDate);
  for (const name of names) await runTransform(db, name);
}

/** An empty in-memory warehouse. */
export function memoryDb(): Promise<Db> {
  return openDb(":memory:");
}
