// The query runner's one error type and how DuckDB's messages are made safe to show: no echo of the SQL text
// (DuckDB appends "LINE 1: <query>"), no server path, and a bounded length.
import { AppError } from "../errors.ts";

const MAX_MESSAGE_CHARS = 300;

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

/** The error of a query stopped at its deadline. */
export function timeoutError(timeoutMs: number): QueryError {
  return new QueryError(
    "query_timeout",
    `The query ran past its ${timeoutMs} ms deadline and was stopped.`,
    "Narrow it with WHERE, aggregate earlier, or add LIMIT.",
  );
}

/**
 * DuckDB's message without the "LINE 1: <query text>" excerpt it appends, so an error never echoes the SQL
 * (it can sit in logs and responses), with any quoted text that is a literal of the query or a parameter's value
 * shown as '…' (DuckDB quotes the value it could not convert), then passed through `scrub` to hide paths. Names
 * of columns or functions it mentions stay.
 */
export function duckdbMessage(
  error: unknown,
  scrub: (text: string) => string,
  query: { sql: string; params: readonly unknown[] } = { sql: "", params: [] },
): string {
  const text = error instanceof Error ? error.message : String(error);
  const stripped =
    text
      .replace(/^Failed to extract statements:\s*/, "")
      .split(/\n\s*LINE \d+:/)[0]
      ?.replace(/\s+/g, " ")
      .trim() ?? "";
  const given = new Set(query.params.map(String));
  const message = scrub(
    // DuckDB quotes the value either way: 'x' or "x"; an identifier is quoted too but is no literal of the query
    stripped.replace(/(['"])([^'"]*)\1/g, (quoted, mark: string, inner: string) =>
      inner !== "" && (query.sql.includes(`'${inner}'`) || given.has(inner)) ? `${mark}…${mark}` : quoted,
    ),
  );
  if (!message) return "DuckDB gave no reason.";
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
}
