// GET /api/v1/contributors/trending: projects gaining the most contributors, the top of each stack layer, filtered
// by stack layer (that layer's leaderboard) and domain, paged. Sources count contributors; they do not name them.
import { contributorsTrendingParams, contributorsTrendingRecordSchema } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const CONTRIBUTORS_TRENDING_COLLECTION: CollectionSpec = {
  name: "contributors-trending",
  sql: "contributors_trending",
  record: contributorsTrendingRecordSchema,
  filters: ["stack_layer", "domain"],
};

export const contributorsTrendingRoute: CollectionRoute = {
  name: "contributors-trending",
  method: "GET",
  path: "/api/v1/contributors/trending",
  kind: "list",
  summary: "Projects gaining the most contributors, by stack layer",
  description:
    "For each stack layer, the projects that gained the most contributors between the first and the latest count known within contributors_window_days (methodology), from a base of at least contributors_min_base, the top contributors_trending_size of the layer; then by growth, latest count and full_name. The sources give contributor counts, not people. stack_layer gives that layer's leaderboard (rank is the position on it); without it, the leaderboards of every layer in one list in the same order. domain narrows either.",
  tag: "Trends",
  query: contributorsTrendingParams,
  cache: NIGHTLY_PRIVATE,
  collection: CONTRIBUTORS_TRENDING_COLLECTION,
  filters: { stack_layer: "stack_layer", domain: "domain" },
  paging: { limit: "limit", offset: "offset" },
  examples: { limit: "10" },
};
