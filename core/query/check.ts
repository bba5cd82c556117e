// The statement check, before anything is bound or run: exactly one statement, a SELECT by DuckDB's own parser
// (json_serialize_sql serialises only SELECTs), and no function or table the deny list names, found by walking
// the parse tree — never by matching the text, which comments and quoting can disguise — and through the views and
// macros it calls, whose definitions are walked the same way.
import type { DuckDBConnection } from "@duckdb/node-api";
import { deniedReason, isPathLike, readsNoTableByText } from "./deny.ts";
import { QueryError } from "./errors.ts";

const SELECT_ONLY_HINT = "The public database is read-only: query it with one SELECT or WITH … SELECT.";

interface Serialized {
  error: boolean;
  statements?: unknown[];
}

/**
 * Throws query_rejected unless `sql` is one SELECT that names nothing denied; DuckDB parses, nothing runs. `functions`
 * caches what the catalog says of each function name (the catalog is locked: it cannot change under a runner).
 */
export async function checkStatement(
  connection: DuckDBConnection,
  sql: string,
  functions: Map<string, Promise<FunctionFacts>> = new Map(),
): Promise<void> {
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
  const refused = await findDenied(tree, catalogOf(connection, functions));
  if (refused) throw new QueryError("query_rejected", refusal(refused), deniedHint());
}

/** What a query may not use, and why: "function read_blob()" … "reads files". */
export interface Refused {
  what: string;
  reason: string;
  /** The views and macros between `what` and the name refused, outermost first. */
  via?: string[];
}

/** `inner`, found inside the definition of `what`, as the refusal of `what`. */
function through(what: string, inner: Refused): Refused {
  return { what, reason: inner.reason, via: [inner.what, ...(inner.via ?? [])] };
}

/** The views a table reference may name (none for a table), each with its definition's parse tree. */
export type ViewLookup = (ref: {
  catalog: string;
  schema: string;
  name: string;
}) => Promise<ViewDefinition[]>;

/** What the catalog says of a function name a query calls. */
export interface FunctionFacts {
  /** Bodies of the macros (scalar or table) of that name, each as a parse tree: walked like a view's definition. */
  macros: ViewDefinition[];
  /**
   * A built-in table function whose first positional argument is text: it may read a table, a file or SQL named by
   * that text (query_table('duckdb_databases')), which no walk of the parse tree can follow.
   */
  takesText: boolean;
}

/** The catalog as the walk reads it: views by reference, functions by name. */
export interface CatalogLookup {
  views: ViewLookup;
  functions(name: string): Promise<FunctionFacts>;
}

export interface ViewDefinition {
  /** catalog.schema.name, to visit each view once. */
  id: string;
  /** The parse tree of the view's SELECT; undefined when it cannot be parsed back (then it cannot be judged). */
  tree: unknown;
}

/**
 * The first refusal in the parse tree, or undefined. A view (the catalog's own, pg_catalog's, information_schema's)
 * is judged by what it reads: its definition is walked like the query, so pg_settings is refused because it reads
 * duckdb_settings(), and information_schema.tables is kept because it reads only the tables' structure. A macro is
 * judged the same way (histogram_values() reads its table through query_table()), and a table function that takes
 * text is refused unless it is known to read no table by it.
 */
export async function findDenied(
  node: unknown,
  catalog: CatalogLookup,
  seen: Set<string> = new Set(),
): Promise<Refused | undefined> {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = await findDenied(child, catalog, seen);
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
    const facts = await catalog.functions(fn);
    if (facts.takesText && !readsNoTableByText(fn)) {
      return { what: `function ${fn}()`, reason: "reads a table, file or SQL named by text" };
    }
    for (const macro of facts.macros) {
      if (seen.has(macro.id)) continue;
      seen.add(macro.id);
      if (macro.tree === undefined) return { what: `function ${fn}()`, reason: "cannot be checked" };
      const inner = await findDenied(macro.tree, catalog, seen);
      if (inner) return through(`function ${fn}()`, inner);
    }
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
    for (const view of await catalog.views(ref)) {
      if (seen.has(view.id)) continue;
      seen.add(view.id);
      if (view.tree === undefined) return { what: `view ${table}`, reason: "cannot be checked" };
      const inner = await findDenied(view.tree, catalog, seen);
      if (inner) return through(`view ${table}`, inner);
    }
  }
  for (const value of Object.values(record)) {
    const found = await findDenied(value, catalog, seen);
    if (found) return found;
  }
  return undefined;
}

/** The message the caller reads. */
export function refusal({ what, reason, via }: Refused): string {
  if (what === "file or URL") return "Reading a file or URL is not allowed; query the public tables by name.";
  return `The ${what} is not allowed: it ${reason}${via ? ` (through ${via.join(", then ")})` : ""}.`;
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
function catalogOf(
  connection: DuckDBConnection,
  functions: Map<string, Promise<FunctionFacts>>,
): CatalogLookup {
  return {
    views: viewsOf(connection),
    functions(name) {
      const key = name.toLowerCase();
      let facts = functions.get(key);
      if (!facts) {
        facts = functionFacts(connection, key);
        functions.set(key, facts);
        // a lookup cut short (the query's deadline interrupts the connection) is asked again next time
        facts.catch(() => functions.delete(key));
      }
      return facts;
    },
  };
}

/**
 * What duckdb_functions() says of `name`: its macros' bodies (a table macro's is a SELECT, a scalar macro's an
 * expression, parsed as `SELECT <expression>`), and whether a built-in table function of that name takes text first.
 */
async function functionFacts(connection: DuckDBConnection, name: string): Promise<FunctionFacts> {
  const reader = await connection.runAndReadAll(
    `SELECT function_type, macro_definition, parameters[1] AS first, parameter_types[1]::VARCHAR AS first_type
     FROM duckdb_functions() WHERE lower(function_name) = $1 AND function_type IN ('macro', 'table_macro', 'table')`,
    [name],
  );
  const facts: FunctionFacts = { macros: [], takesText: false };
  for (const [index, [type, definition, first, firstType]] of reader.getRows().entries()) {
    if (type === "table") {
      // positional parameters are named col0, col1…; named ones (technique := …) are options, not the source
      if (String(first).startsWith("col") && TEXT_TYPES.has(String(firstType))) facts.takesText = true;
      continue;
    }
    const select = type === "table_macro" ? String(definition) : `SELECT ${String(definition)}`;
    facts.macros.push({ id: `macro:${name}:${index}`, tree: await serialize(connection, select) });
  }
  return facts;
}

/** Argument types that can name a table, a file or a statement. */
const TEXT_TYPES = new Set(["VARCHAR", "VARCHAR[]"]);

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
