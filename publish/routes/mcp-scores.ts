// GET /api/v1/mcp/scores: /api/v1/quality with the domain fixed to mcp (and at most 200 a page).
import { mcpScoresParams } from "../../schemas/index.ts";
import { type CollectionRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { QUALITY_COLLECTION, scoreRange } from "./quality.ts";

export const mcpScoresRoute: CollectionRoute = {
  name: "mcp-scores",
  method: "GET",
  path: "/api/v1/mcp/scores",
  kind: "list",
  summary: "Quality scores of Model Context Protocol projects",
  description:
    "An alias of /api/v1/quality?domain=mcp: MCP servers, clients and SDKs in canonical order; meta.query echoes domain mcp.",
  tag: "Quality",
  query: mcpScoresParams,
  cache: NIGHTLY_PRIVATE,
  collection: QUALITY_COLLECTION,
  partition: () => "mcp",
  filters: { subcategory: "subcategory" },
  range: scoreRange,
  paging: { limit: "limit", offset: "offset" },
  echo: (p) => ({ domain: "mcp", ...p }),
  examples: { min_score: "30" },
};
