// The MCP tools, generated from the route table: every route whose spec has an `mcp` field is a tool, in the table's
// order. A read tool is one GET route — its name from that field, its description from the field or the route's
// description, its input schema the route's own zod path and query parameters (as JSON Schema, the way the OpenAPI
// document shows them) — and answers with the exact envelope the REST endpoint sends, through the same validation
// (validateParams) and slicing (publish/answer.ts) over the live release. run_query is POST /api/v1/query's sandbox,
// limits and worker pool (runQuery). No tool touches DuckDB.
import { z } from "zod";
import { type Body, bodyBytes, prepareItemBody } from "../../publish/envelope.ts";
import type { CollectionRoute, FileRoute, RouteSpec } from "../../publish/route-spec.ts";
import { ROUTES } from "../../publish/routes/index.ts";
import { queryRoute } from "../../publish/routes/query.ts";
import { bodyJsonSchema, type JsonSchema, paramsJsonSchema, queryBody } from "../../schemas/index.ts";
import { ApiError } from "../errors.ts";
import { type QueryService, runQuery } from "../query/route.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { answerFound, validateParams } from "../route-handler.ts";
import { fitQueryAnswer, MAX_MCP_ANSWER_BYTES, type QueryAnswer } from "./answer-size.ts";

/** What the tools read: the live release, the clock's meta.timestamp and, for run_query, the query service. */
export interface ToolSources {
  release: ReleaseReader;
  timestamp: () => string;
  /** Without it there is no run_query tool (as POST /api/v1/query is a 404 without it). */
  query?: QueryService | undefined;
}

/** Who calls: the query pool's per-caller bound counts against its key, and the per-address one its address. */
export interface ToolCaller {
  key: string;
  address?: string;
  /** Whether the client can no longer be answered (its connection closed): its answer is then not built. */
  gone?: () => boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  /**
   * The response envelope ({data, meta}) as JSON text, or an ApiError carrying the endpoint's code. `maxResultBytes`
   * bounds the answer as a tools/call result carries it (answer-size.ts resultBytes): run_query cuts its rows to fit;
   * the read tools' pages are bounded by their parameters' limits.
   */
  call(args: Record<string, unknown>, caller: ToolCaller, maxResultBytes?: number): Promise<string>;
}

type ReadRoute = CollectionRoute | FileRoute;

/** The routes served as tools, in the route table's order: those whose spec has an `mcp` field. */
export function toolRoutes(routes: readonly RouteSpec[] = ROUTES): RouteSpec[] {
  return routes.filter((route) => route.mcp !== undefined);
}

/** Every tool over `sources`, in the route table's order; run_query only when a query service is given. */
export function createTools(sources: ToolSources, routes: readonly RouteSpec[] = ROUTES): McpTool[] {
  const tools: McpTool[] = [];
  for (const route of toolRoutes(routes)) {
    if (route.kind === "list" || route.kind === "item" || route.kind === "bulk" || route.kind === "file") {
      tools.push(readTool(route, sources));
    } else if (route === queryRoute) {
      const tool = queryTool(sources);
      if (tool) tools.push(tool);
    } else {
      throw new Error(
        `Route ${route.name} asks to be the MCP tool ${route.mcp?.name}, but only GET routes answered from the release and the query route can be (api-shim/mcp/tools.ts).`,
      );
    }
  }
  return tools;
}

/** What an agent reads about a route's tool: its own description, or the route's. */
function toolDescription(route: RouteSpec): string {
  return route.mcp?.description ?? route.description;
}

function queryTool(sources: ToolSources): McpTool | undefined {
  const { query } = sources;
  if (!query) return undefined;
  const service = { ...query, release: sources.release, timestamp: sources.timestamp };
  return {
    name: queryRoute.mcp?.name ?? queryRoute.name,
    title: queryRoute.summary,
    description: `${toolDescription(queryRoute)} Answers as ${queryRoute.method} ${queryRoute.path} does: {data: {run_date, columns, rows}, meta}.`,
    inputSchema: objectSchema(bodyJsonSchema(queryBody)),
    async call(args, caller, maxResultBytes = Number.POSITIVE_INFINITY) {
      // the worker cuts the rows to what fits sent twice (as text and as structured content): a row no answer could
      // carry is never shipped to the shim (a 499,000-backslash row took 3 MB of work per call for nothing, issue 35)
      const answer = (await runQuery(service, caller, args, "json-and-text")) as QueryAnswer;
      if (caller.gone?.()) throw new ApiError("unavailable", "The client left before its answer was sent.");
      const text = fitQueryAnswer(answer, maxResultBytes);
      if (text === undefined) {
        throw new ApiError(
          "query_rejected",
          `The answer's columns alone take more than the ${MAX_MCP_ANSWER_BYTES.toLocaleString("en-US")} bytes an MCP answer may (it carries them twice, as text and as structured content); select fewer or shorter columns.`,
        );
      }
      return text;
    },
  };
}

function readTool(route: ReadRoute, sources: ToolSources): McpTool {
  const pathNames = Object.keys(route.pathParams?.shape ?? {});
  const params = z.strictObject({ ...route.pathParams?.shape, ...route.query.shape });
  return {
    name: route.mcp?.name ?? route.name,
    title: route.summary,
    description: `${toolDescription(route)} Answers as GET ${route.path} does: the same {data, meta} envelope.`,
    inputSchema: objectSchema(paramsJsonSchema(params)),
    async call(args) {
      const raw = textArguments(args);
      const rawPath = Object.fromEntries(Object.entries(raw).filter(([name]) => pathNames.includes(name)));
      const rawQuery = Object.fromEntries(Object.entries(raw).filter(([name]) => !pathNames.includes(name)));
      const valid = validateParams(route, rawPath, rawQuery);
      if (!valid.ok) throw new ApiError(valid.code, valid.message);
      const body = await readBody(route, valid, sources.release);
      return bodyBytes(body, sources.timestamp()).toString("utf8");
    },
  };
}

/** The body GET answers for validated parameters: a collection's slice, or an enveloped file of the release. */
async function readBody(
  route: ReadRoute,
  valid: { params: Record<string, unknown>; queryJson: string },
  release: ReleaseReader,
): Promise<Body> {
  if (route.kind !== "file") {
    return answerFound(route, valid, (collection, partition) => release.partition(collection, partition));
  }
  const path = typeof route.file === "string" ? route.file : route.file(valid.params);
  const file = await release.file(path);
  if (!file) throw new ApiError("not_found", `This release has no ${path}.`);
  return prepareItemBody(file.bytes, valid.queryJson);
}

/**
 * Tool arguments (JSON) as the query string would carry them, so the route's own schemas and messages apply:
 * numbers and booleans as their text, null as an omitted argument; a list or an object is refused (no parameter of
 * these routes takes one).
 */
function textArguments(args: Record<string, unknown>): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "object") {
      throw new ApiError(
        "invalid_parameter",
        `${name} must be one value (text, a number or a boolean), not ${Array.isArray(value) ? "a list" : "an object"}.`,
      );
    }
    raw[name] = String(value);
  }
  return raw;
}

/** MCP requires an input schema of type object; the JSON Schema dialect marker is left out (clients assume 2020-12). */
function objectSchema(schema: JsonSchema): JsonSchema & { type: "object" } {
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: "object" };
}
