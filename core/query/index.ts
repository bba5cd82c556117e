// The read-only query runner behind `projintel sql` and POST /api/v1/query: one SELECT over the public database,
// judged by DuckDB's own parser, in an instance that cannot touch files, the network, extensions or settings,
// under a deadline and row and byte caps.
import { stat } from "node:fs/promises";
import path from "node:path";
import { type DuckDBConnection, DuckDBInstance, StatementType } from "@duckdb/node-api";
import { AppError } from "../errors.ts";
import { partBeside, readManifestBeside } from "../public-db.ts";
import { checkStatement, type FunctionFacts } from "./check.ts";
import { duckdbMessage, QueryError, timeoutError } from "./errors.ts";
import { jsonValue } from "./json-value.ts";
import { createScrubber, scrubValue } from "./scrub.ts";

export { QueryError, type QueryErrorCode } from "./errors.ts";

/**
 * The sandbox. Opening settings: no extension loading of any kind (keeps out httpfs, sqlite_scanner and the
 * like even if installed on the host), and no temp directory, so a query past memory_limit fails instead of
 * spilling to the disk beside the database. No setting names a folder of the host: DuckDB derives the secret and
 * extension folders from $HOME (/home/<user>/.duckdb/…) and shows them in duckdb_settings(), current_setting() and
 * its messages; blank, they show nothing, and secrets are neither stored nor read (secret_directory is blanked in
 * SANDBOX_LOCKDOWN: DuckDB takes an empty one at open as its default).
 */
export const SANDBOX_SETTINGS = {
  temp_directory: "",
  home_directory: "",
  extension_directory: "",
  allow_persistent_secrets: "false",
  autoload_known_extensions: "false",
  autoinstall_known_extensions: "false",
  allow_community_extensions: "false",
  allow_unsigned_extensions: "false",
} as const;

/**
 * The public file is attached read-only under this name, so catalog names and messages say "public", never the
 * file's name (its run date) or folder.
 */
export const PUBLIC_ALIAS = "public";

/**
 * Run once, before any query: the secret folder blanked (see SANDBOX_SETTINGS), external access off
 * (read_csv/read_parquet/glob/COPY on any path or URL), then the configuration locked so no statement can undo any of
 * it. Not opening settings because DuckDB refuses temp_directory at open once external access is off.
 */
export const SANDBOX_LOCKDOWN =
  "SET GLOBAL secret_directory = ''; SET GLOBAL enable_external_access = false; SET GLOBAL lock_configuration = true;";

/** Limits of one query: the API's defaults; the CLI passes its own flags. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  /** Wall time from parsing to the last row read, after which the query is interrupted. */
  timeoutMs: 5_000,
  /** Rows returned at most; more set `truncated`. */
  maxRows: 1_000,
  /**
   * Bytes (UTF-8) of the whole answer as JSON at most: column names and types, then rows; rows past it are cut and set
   * `truncated`, columns alone past it refuse the query.
   */
  maxBytes: 1_000_000,
};

/** Memory and threads one runner's instance may use, so a heavy query cannot starve the process. */
export const DEFAULT_RUNNER_RESOURCES = { memoryLimit: "1GB", threads: 4 };

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  maxBytes: number;
  /**
   * How an answer's bytes are counted against maxBytes: as JSON (POST /api/v1/query's body, the default), or as JSON
   * plus that JSON again as a JSON string (an MCP tools/call result carries both), so that rows that could not be sent
   * are never built.
   */
  bytesAs?: "json" | "json-and-text";
}

/** A positional parameter (`?` or `$1`): scalars only. */
export type QueryParam = string | number | boolean | null;

export interface QueryResult {
  columns: { name: string; type: string }[];
  /** One array per row, values in column order, as JSON values (dates and timestamps as text). */
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
}

export interface QueryRunner {
  run(sql: string, limits?: Partial<QueryLimits>, params?: readonly QueryParam[]): Promise<QueryResult>;
  /** Interrupts every query running now (they fail with query_timeout). */
  interrupt(): void;
  close(): void;
}

/**
 * Opens the public database file read-only in the sandbox; each query gets its own connection. The history parts
 * its manifest names (`<run_date>.json` beside it) are attached read-only first, under the names its views read, so
 * every query sees the same tables as in a database of one file. They hold public rows only, like the file itself.
 */
export async function openQueryRunner(options: {
  file: string;
  memoryLimit?: string;
  threads?: number;
}): Promise<QueryRunner> {
  let instance: DuckDBInstance;
  const memoryLimit = options.memoryLimit ?? DEFAULT_RUNNER_RESOURCES.memoryLimit;
  const scrub = createScrubber(options.file);
  try {
    instance = await DuckDBInstance.create(":memory:", {
      memory_limit: memoryLimit,
      threads: String(options.threads ?? DEFAULT_RUNNER_RESOURCES.threads),
      ...SANDBOX_SETTINGS,
    });
    const manifest = await readManifestBeside(options.file);
    const setup = await instance.connect();
    try {
      const quoted = (file: string) => `'${file.replaceAll("'", "''")}'`;
      for (const part of manifest?.parts ?? []) {
        const file = partBeside(options.file, part.name);
        if (!(await stat(file).catch(() => undefined)))
          throw new AppError(
            `${options.file} reads the history part ${part.name}, which ${path.dirname(file)} lacks: the night was scored against a remote that held it.`,
            {
              hint: `Read the night from its release (projintel serve --release <remote> downloads its parts), or copy public-db/parts/${part.name}.duckdb from the remote into ${path.dirname(file)}.`,
            },
          );
        await setup.run(`ATTACH ${quoted(file)} AS ${part.alias} (READ_ONLY)`);
      }
      await setup.run(`ATTACH ${quoted(options.file)} AS ${PUBLIC_ALIAS} (READ_ONLY)`);
      await setup.run(SANDBOX_LOCKDOWN);
    } finally {
      setup.closeSync();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(`Cannot open the public database ${options.file}: ${(error as Error).message}`, {
      hint: "Run `projintel score` to build it.",
      cause: error,
    });
  }
  const running = new Set<DuckDBConnection>();
  // what the catalog says of each function a query calls, asked once per runner: the locked catalog cannot change
  const functions = new Map<string, Promise<FunctionFacts>>();
  return {
    async run(sql, limits, params = []) {
      const connection = await instance.connect();
      running.add(connection);
      try {
        // USE is the connection's own (the lock allows it): unqualified names are the public tables
        await connection.run(`USE ${PUBLIC_ALIAS}`);
        const context = { limits: { ...DEFAULT_QUERY_LIMITS, ...limits }, memoryLimit, scrub, functions };
        return await runQuery(connection, sql, params, context);
      } finally {
        running.delete(connection);
        connection.closeSync();
      }
    },
    interrupt() {
      for (const connection of running) connection.interrupt();
    },
    close() {
      instance.closeSync();
    },
  };
}

interface RunContext {
  limits: QueryLimits;
  memoryLimit: string;
  scrub: (text: string) => string;
  functions: Map<string, Promise<FunctionFacts>>;
}

async function runQuery(
  connection: DuckDBConnection,
  sql: string,
  params: readonly QueryParam[],
  { limits, memoryLimit, scrub, functions }: RunContext,
): Promise<QueryResult> {
  const started = performance.now();
  if (!hasStatementText(sql)) throw new QueryError("query_rejected", "The query is empty.");
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, limits.timeoutMs);
  try {
    await checkStatement(connection, sql, functions);
    const prepared = await connection.prepare(sql);
    if (prepared.statementType !== StatementType.SELECT) {
      throw new QueryError(
        "query_rejected",
        `Only a SELECT statement is allowed, not ${StatementType[prepared.statementType]}.`,
        "The public database is read-only: query it with SELECT or WITH … SELECT.",
      );
    }
    if (prepared.parameterCount !== params.length) {
      throw new QueryError(
        "query_rejected",
        `The query has ${prepared.parameterCount} parameter(s) but ${params.length} value(s) were given.`,
        "Give one value in params for each ? or $n of the query, in order.",
      );
    }
    if (params.length > 0) prepared.bind([...params]);
    const result = await prepared.stream();
    const types = result.columnTypes();
    const columns = result.columnNames().map((name, i) => ({ name: scrub(name), type: String(types[i]) }));
    const measure = limits.bytesAs === "json-and-text" ? jsonAndTextBytes : jsonBytes;
    // the answer's bound counts everything it carries: nested types and long names can be megabytes with no row
    let bytes = measure(columns);
    if (bytes > limits.maxBytes) {
      throw new QueryError(
        "query_rejected",
        `The query's column names and types alone take ${bytes.toLocaleString("en-US")} bytes, more than the ${limits.maxBytes.toLocaleString("en-US")} an answer may hold.`,
        "Select fewer columns, give them short names, or unnest deep structs and lists.",
      );
    }
    const rows: unknown[][] = [];
    let truncated = false;
    read: for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      for (const raw of chunk.convertRows(jsonValue)) {
        const row = scrubValue(raw, scrub) as unknown[];
        const size = measure(row) + 1;
        if (rows.length >= limits.maxRows || bytes + size > limits.maxBytes) {
          truncated = true;
          break read;
        }
        rows.push(row);
        bytes += size;
      }
    }
    return {
      columns,
      rows,
      row_count: rows.length,
      truncated,
      elapsed_ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (timedOut) throw timeoutError(limits.timeoutMs);
    if (error instanceof QueryError) throw error;
    const message = duckdbMessage(error, scrub, { sql, params });
    if (message.startsWith("Out of Memory Error")) {
      throw new QueryError(
        "query_rejected",
        `The query needs more than the ${memoryLimit} of memory it may use.`,
        "Aggregate earlier, select fewer columns, or add LIMIT.",
      );
    }
    if (message.startsWith("INTERRUPT Error")) throw timeoutError(limits.timeoutMs);
    throw new QueryError("query_rejected", `The query failed: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes of a value as JSON text on the wire (UTF-8), not its length in UTF-16 code units. */
function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/** Bytes of a value as JSON plus as that JSON in a JSON string (every quote and backslash escaped once more). */
function jsonAndTextBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return Buffer.byteLength(json, "utf8") + Buffer.byteLength(JSON.stringify(json), "utf8") - 2;
}

/** False for text holding only whitespace and comments (DuckDB's extractor fails on it without a message). */
function hasStatementText(sql: string): boolean {
  return (
    sql
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/--[^\n]*/g, "")
      .replace(/[\s;]+/g, "").length > 0
  );
}
