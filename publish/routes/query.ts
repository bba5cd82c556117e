// POST /api/v1/query: one read-only SELECT over the public tables, run in the shim's sandbox (a dynamic route):
// documented here so the OpenAPI document covers it.
import { noParams, queryBody, queryMetaSchema, queryResultSchema } from "../../schemas/index.ts";
import { type DynamicRoute, NOT_CACHED } from "../route-spec.ts";

export const queryRoute: DynamicRoute = {
  name: "query",
  method: "POST",
  path: "/api/v1/query",
  kind: "dynamic",
  summary: "Run a read-only SQL query over the public tables",
  description:
    "Runs one SELECT (or WITH … SELECT) statement of DuckDB SQL over the public database: the tables and columns of GET /api/v1/tables, as of the night of GET /api/v1/status. Ready-made recipes are at GET /api/v1/workflows. The database is read-only and cannot reach files, the network or extensions; a query has a deadline, and the rows returned are capped in number and bytes — meta.truncated says a cap cut the result. A query that is not one permitted SELECT is refused with 400 query_rejected, one past the deadline with 400 query_timeout.",
  tag: "Query",
  query: noParams,
  cache: NOT_CACHED,
  body: queryBody,
  bodyOptional: false,
  bodyExample: {
    sql: "SELECT full_name, stars, quality_score, quality_tier FROM projects ORDER BY quality_score DESC, stars DESC LIMIT 10",
  },
  response: queryResultSchema,
  meta: queryMetaSchema,
  examples: {},
};
