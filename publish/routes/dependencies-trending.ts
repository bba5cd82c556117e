// GET /api/v1/dependencies/trending: PyPI and npm packages of tracked projects whose downloads rise fastest, the
// top of each registry, filtered by registry (that registry's leaderboard) and domain, paged.
import { dependenciesTrendingParams, dependencyTrendingRecordSchema } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const DEPENDENCIES_TRENDING_COLLECTION: CollectionSpec = {
  name: "dependencies-trending",
  sql: "dependencies_trending",
  record: dependencyTrendingRecordSchema,
  filters: ["registry", "domain"],
};

export const dependenciesTrendingRoute: CollectionRoute = {
  name: "dependencies-trending",
  method: "GET",
  path: "/api/v1/dependencies/trending",
  kind: "list",
  summary: "Trending packages: PyPI and npm packages with rising downloads",
  description:
    "Packages of tracked projects with at least dependencies_min_monthly downloads in 30 days whose downloads rise: the last 7 days' daily rate against the last 30 days' (or, for npm without a daily series, the 30-day total against an earlier one), capped at dependencies_growth_cap_pct; the top dependencies_trending_size of each registry (methodology). Ordered by growth_pct, then rank. registry gives that registry's leaderboard (rank is the position on it); without it, both in one list. domain narrows either to the packages of that domain's projects.",
  tag: "Trends",
  query: dependenciesTrendingParams,
  cache: NIGHTLY_PRIVATE,
  collection: DEPENDENCIES_TRENDING_COLLECTION,
  filters: { registry: "registry", domain: "domain" },
  paging: { limit: "limit", offset: "offset" },
  examples: { limit: "10" },
};
