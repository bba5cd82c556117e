// GET /api/v1/velocity: the commit-activity leaderboard — projects by commits to the default branch in the last 30
// days — filtered by domain and stack layer, paged. One partition, ranks on the whole board.
import { velocityParams, velocityRecordSchema } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const VELOCITY_COLLECTION: CollectionSpec = {
  name: "velocity",
  sql: "velocity",
  record: velocityRecordSchema,
  filters: ["domain", "stack_layer"],
};

export const velocityRoute: CollectionRoute = {
  name: "velocity",
  method: "GET",
  path: "/api/v1/velocity",
  kind: "list",
  summary: "Commit-activity leaderboard: projects with the most commits in 30 days",
  description:
    "Projects ordered by commits to the default branch in the last 30 days (GitHub's count), then by the commits of GitHub's recent weekly counts, commits in 90 days, stars and full_name. Only projects with at least one commit in 30 days are listed. rank is the position on the whole leaderboard and domain_rank the position within the project's domain; both stay the same when domain or stack_layer narrow the list.",
  tag: "Trends",
  query: velocityParams,
  cache: NIGHTLY_PRIVATE,
  collection: VELOCITY_COLLECTION,
  filters: { domain: "domain", stack_layer: "stack_layer" },
  paging: { limit: "limit", offset: "offset" },
  examples: { limit: "10" },
};
