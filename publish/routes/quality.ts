// GET /api/v1/quality: quality records of one domain, filtered by subcategory, tier and minimum score, paged.
// Its collection (one partition per domain) also serves the bulk dataset, the MCP alias and single lookups.
import { DOMAINS, QUALITY_TIER_RANGES, qualityParams, qualityRecordSchema } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE, type RankRange } from "../route-spec.ts";

export const QUALITY_COLLECTION: CollectionSpec = {
  name: "quality",
  sql: "quality",
  record: qualityRecordSchema,
  partitions: DOMAINS,
  filters: ["subcategory"],
  rank: { order: "desc" },
  keys: true,
};

/** A tier is a score range, and min_score narrows it. */
export function scoreRange(params: {
  quality_tier?: keyof typeof QUALITY_TIER_RANGES;
  min_score?: number;
}): RankRange {
  const tier = params.quality_tier ? QUALITY_TIER_RANGES[params.quality_tier] : { min: 0, max: 100 };
  return { min: Math.max(tier.min, params.min_score ?? 0), max: tier.max };
}

export const qualityRoute: CollectionRoute = {
  name: "quality",
  method: "GET",
  path: "/api/v1/quality",
  kind: "list",
  summary: "Quality scores of the projects in a domain",
  description:
    "Quality records of one domain in canonical order (quality_score, then stars, then full_name), filtered by subcategory, quality tier and minimum score. The subcategories of a domain are those its records carry.",
  tag: "Quality",
  mcp: { name: "list_quality" },
  query: qualityParams,
  cache: NIGHTLY_PRIVATE,
  collection: QUALITY_COLLECTION,
  partition: (p) => p.domain,
  partitionParam: "domain",
  filters: { subcategory: "subcategory" },
  range: scoreRange,
  paging: { limit: "limit", offset: "offset" },
  examples: { domain: "mcp", min_score: "30" },
};
