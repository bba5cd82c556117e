// GET /api/v1/datasets/quality: the quality records of a domain in bulk (up to 2,000 a page), public and cacheable
// for an hour; the same collection as /quality, without min_score.
import { datasetsQualityParams } from "../../schemas/index.ts";
import { type CollectionRoute, HOURLY_PUBLIC } from "../route-spec.ts";
import { QUALITY_COLLECTION, scoreRange } from "./quality.ts";

export const datasetsQualityRoute: CollectionRoute = {
  name: "datasets-quality",
  method: "GET",
  path: "/api/v1/datasets/quality",
  kind: "list",
  summary: "Quality records of a domain in bulk (public, cacheable for an hour)",
  description:
    "The data of /api/v1/quality in pages of up to 2,000, publicly cacheable for an hour and needing no key. For whole-table downloads, the Parquet and Arrow files of /api/v1/datasets are better suited.",
  tag: "Datasets",
  query: datasetsQualityParams,
  cache: HOURLY_PUBLIC,
  collection: QUALITY_COLLECTION,
  partition: (p) => p.domain,
  partitionParam: "domain",
  filters: { subcategory: "subcategory" },
  range: scoreRange,
  paging: { limit: "limit", offset: "offset" },
  examples: { domain: "agents" },
};
