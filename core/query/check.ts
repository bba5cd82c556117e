// The statement check, before anything is bound or run: exactly one statement, a SELECT by DuckDB's own parser
// (json_serialize_sql serialises only SELECTs), and no function or table the deny list names, found by walking
// the parse tree — never by matching the text, which comments and quoting can disguise.
import type { DuckDBConnection } from "@duckdb/node-api";
import { deniedReason, isPathLike } from "./deny.ts";
import { QueryError } from "./errors.ts";

const SELECT_ONLY_HINT = "The public database is read-only: query it with one SELECT or WITH … SELECT.";

interface Serialized {
  error: boolean;
  statements?: unknown[];
}

/** Throws query_rejected unless `sql` is one SELECT that names nothing denied; DuckDB parses, nothing runs. */
export async function checkStatement(connection: DuckDBConnection, sql: string): Promise<void> {
  const extracted = await connection.extractStatements(sql);
  if (extracted.count !== 1) {
    throw new QueryError(
      "query_rejected",
      `Only one statement is allowed; the query holds ${extracted.count}.`,
      "Send a single SELECT (or WITH … SELECT) without a second statement after a semicolon.",
    );
  }
  // Before prepare: binding a COPY … TO already reaches for the file system.
  const reader = await connection.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
  const tree = JSON.parse(String(reader.getRows()[0]?.[0])) as Serialized;
  if (tree.error || tree.statements?.length !== 1) {
    throw new QueryError(
      "query_rejected",
      `Only a SELECT statement is allowed, not ${leadingKeyword(sql)}.`,
      SELECT_ONLY_HINT,
    );
  }
  const refused = findDenied(tree.statements[0]);
  if (refused) throw new QueryError("query_rejected", refused, deniedHint());
}

/** The first refusal in the parse tree, as the message the caller reads, or undefined. */
export function findDenied(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findDenied(child);
      if (found) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== "object") return undefined;
  const record = node as Record<string, unknown>;
  const fn = record.function_name;
  if (typeof fn === "string") {
    const reason = deniedReason(fn);
    if (reason) return `The function ${fn}() is not allowed: it ${reason}.`;
  }
  if (record.type === "BASE_TABLE" && typeof record.table_name === "string") {
    const table = record.table_name;
    if (isPathLike(table)) return "Reading a file or URL is not allowed; query the public tables by name.";
    const reason = deniedReason(table);
    if (reason) return `The view ${table} is not allowed: it ${reason}.`;
  }
  for (const value of Object.values(record)) {
    const found = findDenied(value);
    if (found) return found;
  }
  return undefined;
}

function deniedHint(): string {
  return "Query the public tables (GET /api/v1/tables lists them); files, settings and server details are out of reach.";
}

/** The statement's first word, upper-cased, for the refusal message (the decision is the parser's). */
function leadingKeyword(sql: string): string {
  const text = sql.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/--[^\n]*/g, " ");
  const word = /[A-Za-z]+/.exec(text)?.[0];
  return word ? word.toUpperCase() : "another statement";
}
