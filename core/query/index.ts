// The read-only query runner behind `projintel sql` and POST /api/v1/query: one SELECT over the public database,
// judged by DuckDB's own parser, in an instance that cannot touch files, the network, extensions or settings,
// under a deadline and row and byte caps.
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValueConverter,
  type Json,
  JsonDuckDBValueConverter,
  StatementType,
} from "@duckdb/node-api";
import { AppError } from "../errors.ts";

/**
 * The sandbox. Opening settings: read-only, no extension loading of any kind (keeps out httpfs, sqlite_scanner
 * and the like even if installed on the host), and no temp directory, so a query past memory_limit fails
 * instead of spilling to the disk beside the database.
 */
export const SANDBOX_SETTINGS = {
  access_mode: "READ_ONLY",
  temp_directory: "",
  autoload_known_extensions: "false",
  autoinstall_known_extensions: "false",
  allow_community_extensions: "false",
  allow_unsigned_extensions: "false",
} as const;

/**
 * Run once, before any query: external access off (read_csv/read_parquet/glob/COPY on any path or URL), then the
 * configuration locked so no statement can undo any of it. Not opening settings because DuckDB refuses
 * temp_directory at open once external access is off.
 */
export const SANDBOX_LOCKDOWN =
  "SET GLOBAL enable_external_access = false; SET GLOBAL lock_configuration = true;";

/** Limits of one query: the API's defaults; the CLI passes its own flags. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  /** Wall time from parsing to the last row read, after which the query is interrupted. */
  timeoutMs: 5_000,
  /** Rows returned at most; more set `truncated`. */
  maxRows: 1_000,
  /** Bytes of the rows as JSON at most (about what the response body holds); more set `truncated`. */
  maxBytes: 1_000_000,
};

/** Memory and threads one runner's instance may use, so a heavy query cannot starve the process. */
export const DEFAULT_RUNNER_RESOURCES = { memoryLimit: "1GB", threads: 4 };

const MAX_MESSAGE_CHARS = 300;

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  maxBytes: number;
}

export interface QueryResult {
  columns: { name: string; type: string }[];
  /** One array per row, values in column order, as JSON values (dates and timestamps as text). */
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
}

/** query_rejected: not one valid, permitted SELECT (the caller's to fix); query_timeout: over the deadline. */
export type QueryErrorCode = "query_rejected" | "query_timeout";

export class QueryError extends AppError {
  readonly code: QueryErrorCode;

  constructor(code: QueryErrorCode, message: string, hint?: string) {
    super(message, { hint, kind: "terminal", stage: "query" });
    this.name = "QueryError";
    this.code = code;
  }
}

export interface QueryRunner {
  run(sql: string, limits?: Partial<QueryLimits>): Promise<QueryResult>;
  close(): void;
}

/** Opens the public database file read-only in the sandbox; each query gets its own connection. */
export async function openQueryRunner(options: {
  file: string;
  memoryLimit?: string;
  threads?: number;
}): Promise<QueryRunner> {
  let instance: DuckDBInstance;
  const memoryLimit = options.memoryLimit ?? DEFAULT_RUNNER_RESOURCES.memoryLimit;
  try {
    instance = await DuckDBInstance.create(options.file, {
      memory_limit: memoryLimit,
      threads: String(options.threads ?? DEFAULT_RUNNER_RESOURCES.threads),
      ...SANDBOX_SETTINGS,
    });
    const setup = await instance.connect();
    try {
      await setup.run(SANDBOX_LOCKDOWN);
    } finally {
      setup.closeSync();
    }
  } catch (error) {
    throw new AppError(`Cannot open the public database ${options.file}: ${(error as Error).message}`, {
      hint: "Run `projintel score` to build it.",
      cause: error,
    });
  }
  return {
    async run(sql, limits) {
      const connection = await instance.connect();
      try {
        return await runQuery(connection, sql, { ...DEFAULT_QUERY_LIMITS, ...limits }, memoryLimit);
      } finally {
        connection.closeSync();
      }
    },
    close() {
      instance.closeSync();
    },
  };
}

async function runQuery(
  connection: DuckDBConnection,
  sql: string,
  limits: QueryLimits,
  memoryLimit: string,
): Promise<QueryResult> {
  const started = performance.now();
  if (!hasStatementText(sql)) throw new QueryError("query_rejected", "The query is empty.");
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, limits.timeoutMs);
  try {
    const extracted = await connection.extractStatements(sql);
    if (extracted.count !== 1) {
      throw new QueryError(
        "query_rejected",
        `Only one statement is allowed; the query holds ${extracted.count}.`,
        "Send a single SELECT (or WITH … SELECT) without a second statement after a semicolon.",
      );
    }
    const prepared = await extracted.prepare(0);
    if (prepared.statementType !== StatementType.SELECT) {
      throw new QueryError(
        "query_rejected",
        `Only a SELECT statement is allowed, not ${StatementType[prepared.statementType]}.`,
        "The public database is read-only: query it with SELECT or WITH … SELECT.",
      );
    }
    const result = await prepared.stream();
    const types = result.columnTypes();
    const columns = result.columnNames().map((name, i) => ({ name, type: String(types[i]) }));
    const rows: unknown[][] = [];
    let bytes = 0;
    let truncated = false;
    read: for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      for (const row of chunk.convertRows(jsonValue)) {
        const size = JSON.stringify(row).length + 1;
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
    if (error instanceof QueryError) throw error;
    if (timedOut) throw timeoutError(limits);
    const message = duckdbMessage(error);
    if (message.startsWith("Out of Memory Error")) {
      throw new QueryError(
        "query_rejected",
        `The query needs more than the ${memoryLimit} of memory it may use.`,
        "Aggregate earlier, select fewer columns, or add LIMIT.",
      );
    }
    throw new QueryError("query_rejected", `The query failed: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(limits: QueryLimits): QueryError {
  return new QueryError(
    "query_timeout",
    `The query ran past its ${limits.timeoutMs} ms deadline and was stopped.`,
    "Narrow it with WHERE, aggregate earlier, or add LIMIT.",
  );
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

/**
 * DuckDB's message without the "LINE 1: <query text>" excerpt it appends, so an error never echoes the SQL
 * (it can sit in logs and responses); names of columns or functions it mentions stay.
 */
function duckdbMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const message = text
    .replace(/^Failed to extract statements:\s*/, "")
    .split(/\n\s*LINE \d+:/)[0]
    ?.replace(/\s+/g, " ")
    .trim();
  if (!message) return "DuckDB gave no reason.";
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
}

const WIDE_INTEGERS = new Set([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/**
 * JSON values: DuckDB's JSON conversion, except that 64- and 128-bit integers (count(*), sum()) and decimals
 * become numbers when exact, since callers expect `"count": 3`, not `"3"`; larger ones stay strings.
 */
const jsonValue: DuckDBValueConverter<Json> = (value, type: DuckDBType, converter) => {
  if (value !== null && WIDE_INTEGERS.has(type.typeId)) {
    const n = BigInt(String(value));
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(n)
      : n.toString();
  }
  if (value !== null && type.typeId === DuckDBTypeId.DECIMAL) return Number(String(value));
  return JsonDuckDBValueConverter(value, type, converter);
};
