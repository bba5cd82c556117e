// POST /api/v1/query: one read-only SELECT over the public tables, run in the shim's sandbox (a dynamic route):
// documented here so the OpenAPI document covers it.
import { describeQueryLimits } from "../../core/query/limits.ts";
import { noParams, queryBody, queryMetaSchema, queryResultSchema } from "../../schemas/index.ts";
import { type DynamicRoute, NOT_CACHED } from "../route-spec.ts";

export const queryRoute: DynamicRoute = {
  name: "query",
  method: "POST",
  path: "/api/v1/query",
  kind: "dynamic",
  summary: "Run a read-only SQL query over the public tables",
  description: `Runs one SELECT (or WITH … SELECT) statement of DuckDB SQL over the public database: the tables and columns of GET /api/v1/tables, as of the night of GET /api/v1/status (the night of the release being served). Ready-made recipes are at GET /api/v1/workflows. ${describeQueryLimits()}`,
  tag: "Query",
  mcp: { name: "run_query" },
  query: noParams,
  cache: NOT_CACHED,
  body: queryBody,
  bodyOptional: false,
  bodyExample: {
    sql: "SELECT full_name, stars, quality_score, quality_tier FROM projects WHERE stars >= ? ORDER BY quality_score DESC, stars DESC LIMIT 10",
    params: [100],
  },
  response: queryResultSchema,
  meta: queryMetaSchema,
  // a query stopped at its deadline: the worker running it, the server's upstream, gave no answer in time
  errorStatuses: [504],
  examples: {},
};
