// Names a query may not use, judged on DuckDB's own parse tree (check.ts): functions and views that read files,
// run SQL given as text, or show the server's paths, settings and environment. Defence in depth behind the
// sandbox's settings: read_blob and pragma_database_list still reach the open database file with external access
// off, and query('…') runs a second statement the parser check never saw.

/** Functions and catalog views refused by exact name, with the reason the caller reads. */
const DENIED: Readonly<Record<string, string>> = {
  read_blob: "reads files",
  read_text: "reads files",
  glob: "lists files",
  sniff_csv: "reads files",
  query: "runs SQL given as text",
  query_table: "reads a table named by text",
  json_execute_serialized_sql: "runs SQL given as text",
  json_deserialize_sql: "works on SQL given as text",
  json_serialize_sql: "works on SQL given as text",
  json_serialize_plan: "works on SQL given as text",
  getenv: "shows the server's environment",
  current_setting: "shows the server's settings",
  checkpoint: "acts on the database file",
  force_checkpoint: "acts on the database file",
  enable_logging: "changes the server's settings",
  disable_logging: "changes the server's settings",
  truncate_duckdb_logs: "changes the server's logs",
  which_secret: "shows the server's secrets",
};

/** Name prefixes refused (file readers and the catalog's server-side views), with their reasons. */
const DENIED_PREFIXES: readonly (readonly [string, string])[] = [
  ["read_", "reads files"],
  ["parquet_", "reads files"],
  ["iceberg_", "reads files"],
  ["delta_", "reads files"],
  ["sqlite_", "reads other databases"],
  ["postgres_", "reads other databases"],
  ["mysql_", "reads other databases"],
  ["pragma_", "shows the server's database files and settings"],
  ["duckdb_", "shows the server's database files and settings"],
];

/** Table functions ending in _scan read files or other databases (parquet_scan, arrow_scan, sqlite_scan). */
const SCAN_SUFFIX = "_scan";

/**
 * Catalog functions and views that show only the public tables' own structure: kept, because describing
 * the tables is half of writing a query. None of them names a file, a setting or the environment.
 */
const CATALOG_ALLOWED = new Set([
  "duckdb_tables",
  "duckdb_columns",
  "duckdb_views",
  "duckdb_schemas",
  "duckdb_types",
  "duckdb_functions",
  "duckdb_keywords",
  "duckdb_constraints",
  "duckdb_indexes",
  "duckdb_sequences",
  "duckdb_dependencies",
  "pragma_table_info",
  "pragma_show",
]);

/**
 * Table functions taking text first that read no table, file or statement by it: kept. Every other such function
 * (query_table, duckdb_table_sample, pragma_storage_info, sql_auto_complete, and whatever a new DuckDB adds) is
 * refused: which functions take text is read from duckdb_functions() (check.ts), so the refusal does not age.
 */
const TEXT_TABLE_FUNCTIONS_KEPT = new Set([
  // parse the JSON text given
  "json_each",
  "json_tree",
  // a public table's columns, by its name: its structure only
  "pragma_table_info",
  "pragma_show",
]);

/** True for a table function that takes text but reads no table, file or statement named by it. */
export function readsNoTableByText(name: string): boolean {
  return TEXT_TABLE_FUNCTIONS_KEPT.has(name.toLowerCase());
}

/** Why a function or table name is refused, or undefined when it may be used. */
export function deniedReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (CATALOG_ALLOWED.has(lower)) return undefined;
  const exact = DENIED[lower];
  if (exact) return exact;
  for (const [prefix, reason] of DENIED_PREFIXES) if (lower.startsWith(prefix)) return reason;
  if (lower.endsWith(SCAN_SUFFIX)) return "reads files or other databases";
  return undefined;
}

/**
 * A table name that is a file path or URL (DuckDB reads `FROM 'data.csv'` through a replacement scan): no public
 * table's name holds a dot, slash, backslash, colon or tilde.
 */
export function isPathLike(tableName: string): boolean {
  return /[./\\:~]/.test(tableName);
}
