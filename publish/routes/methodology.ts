// GET /api/v1/methodology: the scoring methodology generated from the constants the pipeline runs with —
// components, inputs, caps, tiers, lifecycle stages, domains, slugs, sources — and the same text as Markdown.
import { methodologySchema, noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const METHODOLOGY_FILE = "api/v1/methodology.json";

export const methodologyRoute: FileRoute = {
  name: "methodology",
  method: "GET",
  path: "/api/v1/methodology",
  kind: "file",
  summary: "Scoring methodology: components, caps, weights, tiers, lifecycle stages",
  description:
    "How quality_score is computed: four components of 0 to 25 points, each input's cap and the constant holding it, the log scales, the tier ranges, the finished-project rule and how unknown inputs are scored; then the signals beside the score (trends, momentum, hype), the lifecycle stages with their thresholds, the domains with their subcategories and stack layers, the slug rule and the data sources. Generated from the constants the pipeline runs with, so it cannot drift from the computation; markdown holds the same document as text.",
  tag: "Orientation",
  mcp: { name: "get_methodology" },
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: METHODOLOGY_FILE,
  contentType: "application/json; charset=utf-8",
  envelope: true,
  schema: methodologySchema,
  examples: {},
};
