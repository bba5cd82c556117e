// DuckDB access: open the warehouse, run statements and .sql files, read rows as plain objects.
// Thin on purpose: the SQL lives in pipeline/sql/, this file only moves it and its results.
import { readFile } from "node:fs/promises";
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from "@duckdb/node-api";
import { AppError } from "./errors.ts";

export type Params = Record<string, DuckDBValue> | DuckDBValue[];
export type Row = Record<string, unknown>;

export interface Db {
  run(sql: string, params?: Params): Promise<void>;
  all<T = Row>(sql: string, params?: Params): Promise<T[]>;
  /** Rows in chunks as DuckDB produces them (about 2,048 a chunk), for results too big to hold at once. */
  stream<T = Row>(sql: string, params?: Params): AsyncIterable<T[]>;
  /** The underlying connection, for appenders and streaming reads. */
  readonly connection: DuckDBConnection;
  /**
   * Another connection to the same database, whose statements run beside this one's (appends to different tables:
   * one table's load is mostly one core, building its primary key). Closing it closes that connection only.
   */
  fork(): Promise<Db>;
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** DuckDB settings applied at open, e.g. { threads: "2", memory_limit: "2GB" }. */
  settings?: Record<string, string>;
}

/** Converts BIGINT/HUGEINT results to numbers when they fit, so callers deal with plain JSON values. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Date) return value;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

export async function openDb(file: string, options: OpenOptions = {}): Promise<Db> {
  // DuckDB's native module (about 0.4 s of CPU) loads at the first open, not with every module that imports this
  // file for its helpers: a CLI command that never opens a database (`state push`, `--help`) starts without it
  const { DuckDBInstance } = await import("@duckdb/node-api");
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, {
      ...(options.readOnly ? { access_mode: "READ_ONLY" } : {}),
      ...options.settings,
    });
  } catch (error) {
    throw new AppError(`Cannot open the DuckDB database ${file}: ${(error as Error).message}`, {
      hint: "Check that no other projintel process holds it open for writing and that the state folder is writable.",
      cause: error,
    });
  }
  return wrap(instance, await instance.connect(), () => instance.closeSync());
}

function wrap(instance: DuckDBInstance, connection: DuckDBConnection, closeInstance: () => void): Db {
  return {
    connection,
    async fork() {
      return wrap(instance, await instance.connect(), () => {});
    },
    async run(sql, params) {
      await connection.run(sql, params);
    },
    async all<T>(sql: string, params?: Params) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS().map((row) => plain(row) as T);
    },
    async *stream<T>(sql: string, params?: Params) {
      const result = await connection.stream(sql, params);
      for await (const rows of result.yieldRowObjectJs()) yield rows.map((row) => plain(row) as T);
    },
    close() {
      connection.closeSync();
      closeInstance();
    },
  };
}

/**
 * Runs a .sql file. `${name}` placeholders are replaced by the given values, which must be plain SQL literals
 * produced by `sqlLiteral` — file paths and dates, never user input.
 */
export async function runSqlFile(db: Db, file: string, vars: Record<string, string> = {}): Promise<void> {
  const sql = await readSqlFile(file, vars);
  try {
    await db.run(sql);
  } catch (error) {
    throw new AppError(`SQL file ${file} failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A .sql file's text with its `${name}` placeholders replaced, as runSqlFile runs it: for a caller that runs the same
 * files many times (a list's replay, night after night) and reads each once.
 */
export async function readSqlFile(file: string, vars: Record<string, string> = {}): Promise<string> {
  const text = await readFile(file, "utf8");
  return text.replace(/\$\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new AppError(`${file} uses \${${name}} but no value was given for it.`);
    return value;
  });
}

/** A single-quoted SQL string literal. */
export function sqlLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
