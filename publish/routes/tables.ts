// GET /api/v1/tables: the public database that POST /api/v1/query reads — each table with its rows and its columns
// (name, DuckDB type, description). A document written by the orientation artifact.
import { noParams, publicTablesSchema } from "../../schemas/index.ts";
import { type FileRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const TABLES_FILE = "api/v1/tables.json";

export const tablesRoute: FileRoute = {
  name: "tables",
  method: "GET",
  path: "/api/v1/tables",
  kind: "file",
  summary: "The public database's tables, with row counts and columns",
  description:
    "Every table POST /api/v1/query can read, with tonight's row count and each column's name, DuckDB type and meaning: what you need to write SQL against the data. The same tables are in the datasets (GET /api/v1/datasets) and behind `projintel sql`.",
  tag: "Orientation",
  mcp: { name: "get_tables" },
  query: noParams,
  cache: NIGHTLY_PRIVATE,
  file: TABLES_FILE,
  contentType: "application/json; charset=utf-8",
  envelope: true,
  schema: publicTablesSchema,
  examples: {},
};
