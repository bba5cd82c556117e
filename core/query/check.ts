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
  const tree = await serialize(connection, sql);
  if (!tree) {
    throw new QueryError(
      "query_rejected",
      `Only a SELECT statement is allowed, not ${leadingKeyword(sql)}.`,
      SELECT_ONLY_HINT,
    );
  }
  const refused = await findDenied(tree, viewsOf(connection));
  if (refused) throw new QueryError("query_rejected", refusal(refused), deniedHint());
}

/** What a query may not use, and why: "function read_blob()" … "reads files". */
export interface Refused {
  what: string;
  reason: string;
}

/** The views a table reference may name (none for a table), each with its definition's parse tree. */
export type ViewLookup = (ref: {
  catalog: string;
  schema: string;
  name: string;
}) => Promise<ViewDefinition[]>;

export interface ViewDefinition {
  /** catalog.schema.name, to visit each view once. */
  id: string;
  /** The parse tree of the view's SELECT; undefined when it cannot be parsed back (then it cannot be judged). */
  tree: unknown;
}

/**
 * The first refusal in the parse tree, or undefined. A view (the catalog's own, pg_catalog's, information_schema's)
 * is judged by what it reads: its definition is walked like the query, so pg_settings is refused because it reads
 * duckdb_settings(), and information_schema.tables is kept because it reads only the tables' structure.
 */
export async function findDenied(
  node: unknown,
  views: ViewLookup,
  seen: Set<string> = new Set(),
): Promise<Refused | undefined> {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = await findDenied(child, views, seen);
      if (found) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== "object") return undefined;
  const record = node as Record<string, unknown>;
  const fn = record.function_name;
  if (typeof fn === "string") {
    const reason = deniedReason(fn);
    if (reason) return { what: `function ${fn}()`, reason };
  }
  if (record.type === "BASE_TABLE" && typeof record.table_name === "string") {
    const table = record.table_name;
    if (isPathLike(table)) return { what: "file or URL", reason: "" };
    const reason = deniedReason(table);
    if (reason) return { what: `view ${table}`, reason };
    const ref = {
      catalog: String(record.catalog_name ?? ""),
      schema: String(record.schema_name ?? ""),
      name: table,
    };
    for (const view of await views(ref)) {
      if (seen.has(view.id)) continue;
      seen.add(view.id);
      if (view.tree === undefined) return { what: `view ${table}`, reason: "cannot be checked" };
      const inner = await findDenied(view.tree, views, seen);
      if (inner) return { what: `view ${table}`, reason: `${inner.reason} (through ${inner.what})` };
    }
  }
  for (const value of Object.values(record)) {
    const found = await findDenied(value, views, seen);
    if (found) return found;
  }
  return undefined;
}

/** The message the caller reads. */
export function refusal({ what, reason }: Refused): string {
  return what === "file or URL"
    ? "Reading a file or URL is not allowed; query the public tables by name."
    : `The ${what} is not allowed: it ${reason}.`;
}

/** One SELECT statement's parse tree as DuckDB serialises it, or undefined when it is not one SELECT. */
async function serialize(connection: DuckDBConnection, sql: string): Promise<unknown> {
  const reader = await connection.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
  const tree = JSON.parse(String(reader.getRows()[0]?.[0])) as Serialized;
  return tree.error || tree.statements?.length !== 1 ? undefined : tree.statements[0];
}

/** `CREATE [TEMP] VIEW name [(columns)] AS <select>;` → the select. */
const VIEW_DEFINITION =
  /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?VIEW\s+[\s\S]+?\s+AS\s+([\s\S]+?);?\s*$/i;

/**
 * Views a reference may resolve to, from the catalog (`duckdb_views()`, internal ones included), each as its parse
 * tree. A two-part name may be catalog.table or schema.table, so both are matched.
 */
function viewsOf(connection: DuckDBConnection): ViewLookup {
  return async ({ catalog, schema, name }) => {
    const reader = await connection.runAndReadAll(
      `SELECT database_name || '.' || schema_name || '.' || view_name, sql FROM duckdb_views()
       WHERE lower(view_name) = lower($1)
         AND ($2 = '' OR lower(schema_name) = lower($2) OR lower(database_name) = lower($2))
         AND ($3 = '' OR lower(database_name) = lower($3))`,
      [name, schema, catalog],
    );
    const found: ViewDefinition[] = [];
    for (const [id, sql] of reader.getRows()) {
      const select = VIEW_DEFINITION.exec(String(sql))?.[1];
      found.push({ id: String(id), tree: select ? await serialize(connection, select) : undefined });
    }
    return found;
  };
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
