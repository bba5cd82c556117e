// GET /api/v1/trending: the star-velocity leaderboard of a window (7d or 30d) — the projects gaining the most stars,
// filtered by domain, stack layer and category (subcategory), paged. One partition per window.
import { trendingParams, trendingRecordSchema, WINDOWS } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const TRENDING_COLLECTION: CollectionSpec = {
  name: "trending",
  sql: "trending",
  record: trendingRecordSchema,
  partitions: WINDOWS,
  filters: ["domain", "stack_layer", "subcategory"],
};

export const trendingRoute: CollectionRoute = {
  name: "trending",
  method: "GET",
  path: "/api/v1/trending",
  kind: "list",
  summary: "Star-velocity leaderboard: projects gaining the most stars in a window",
  description:
    "Projects ordered by stars gained in the window (7d or 30d), then by stars, then by full_name. Only projects that gained stars are listed: one with no gain, or with an unknown one (tracked for less than the window, without star history), is not. rank is the position on the window's whole leaderboard, so it stays the same when domain, stack_layer or category (the subcategory) narrow the list.",
  tag: "Trends",
  mcp: { name: "list_trending" },
  query: trendingParams,
  cache: NIGHTLY_PRIVATE,
  collection: TRENDING_COLLECTION,
  partition: (p) => p.window,
  partitionParam: "window",
  filters: { domain: "domain", stack_layer: "stack_layer", category: "subcategory" },
  paging: { limit: "limit", offset: "offset" },
  examples: { window: "7d", limit: "10" },
};
