// Loads a run's batch files into their raw_* tables in one transaction: the run date's rows are replaced
// whole or not at all. Column types come from the table itself (DESCRIBE), so JSON values land exactly typed.
import path from "node:path";
import { type Db, runSqlFile, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";

export interface LoadTarget {
  /** A raw table with a DDL file pipeline/sql/raw/<table>.sql. */
  table: string;
  /** NDJSON batch files holding rows with exactly the table's columns. */
  files: readonly string[];
}

export interface LoadResult {
  table: string;
  files: number;
  /** Rows of the run date in the table after loading. */
  rows: number;
}

export const RAW_DDL_DIR = path.resolve(import.meta.dirname, "../sql/raw");

const TABLE = /^raw_[a-z0-9_]+$/;
/** Batch files read by one INSERT. */
export const FILES_PER_INSERT = 200;

async function loadOne(db: Db, runDate: string, target: LoadTarget, ddlDir: string): Promise<LoadResult> {
  const { table } = target;
  await runSqlFile(db, path.join(ddlDir, `${table}.sql`));
  const described = await db.all<{ column_name: string; column_type: string }>(`DESCRIBE ${table}`);
  await db.run(`DELETE FROM ${table} WHERE run_date = ?::DATE`, [runDate]);
  const columns = `{${described.map((c) => `${sqlLiteral(c.column_name)}: ${sqlLiteral(c.column_type)}`).join(", ")}}`;
  const names = described.map((c) => `"${c.column_name}"`).join(", ");
  // A few hundred files a statement: one statement over a night's thousands of files at 220,000 repositories
  // would hold them all in memory at once.
  for (let i = 0; i < target.files.length; i += FILES_PER_INSERT) {
    const files = `[${target.files
      .slice(i, i + FILES_PER_INSERT)
      .map(sqlLiteral)
      .join(", ")}]`;
    await db.run(
      `INSERT INTO ${table} BY NAME SELECT ${names} FROM read_json(${files}, format = 'newline_delimited', columns = ${columns})`,
    );
  }
  const [count] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE run_date = ?::DATE`, [
    runDate,
  ]);
  return { table, files: target.files.length, rows: count?.n ?? 0 };
}

/**
 * Replaces the run date's rows of every target table with the rows of its batch files, in one transaction.
 * Creates a missing table from its DDL. On any error nothing changes and an AppError names the table.
 */
export async function loadBatches(
  db: Db,
  runDate: string,
  targets: readonly LoadTarget[],
  options: { ddlDir?: string } = {},
): Promise<LoadResult[]> {
  const ddlDir = options.ddlDir ?? RAW_DDL_DIR;
  for (const { table } of targets) {
    if (!TABLE.test(table)) throw new AppError(`Refusing to load into "${table}": not a raw_* table name.`);
  }
  const results: LoadResult[] = [];
  let current = "";
  await db.run("BEGIN TRANSACTION");
  try {
    for (const target of targets) {
      current = target.table;
      results.push(await loadOne(db, runDate, target, ddlDir));
    }
    await db.run("COMMIT");
  } catch (error) {
    await db.run("ROLLBACK");
    throw new AppError(`Loading ${current} for ${runDate} failed: ${(error as Error).message}`, {
      hint: "The batch files under the run folder do not fit the table; check the connector's rows against its DDL.",
      cause: error,
    });
  }
  return results;
}
