// Item schemas of the list endpoints (quality, trending, project search) and the API key record.
// Nullability: text the source may lack (description, language, license, subcategory, package) is null,
// never ""; counts are never null (0 when there is nothing) but for a download figure not known, which is null
// (fields.ts downloadCountSchema). Records are strict: no stray columns leak.
import { z } from "zod";
import {
  domainSchema,
  keyRecordTierSchema,
  lifecycleStageSchema,
  qualityTierSchema,
  stackLayerSchema,
} from "./enums.ts";
import {
  checkComponentSum,
  checkTier,
  componentScoreSchema,
  countSchema,
  downloadCountSchema,
  fullNameSchema,
  optionalTextSchema,
  qualityScoreSchema,
  repoNameSchema,
  slugSchema,
} from "./fields.ts";

/** Items of /api/v1/quality, /api/v1/mcp/scores, /api/v1/datasets/quality and quality/{domain}/{repo}. */
export const qualityRecordSchema = z
  .strictObject({
    full_name: fullNameSchema,
    name: repoNameSchema,
    description: optionalTextSchema.describe("Short description; null when the repository has none"),
    stars: countSchema.describe("Star count"),
    forks: countSchema
      .nullable()
      .describe("Fork count; null when unknown (a release built from a list that did not record it)"),
    language: optionalTextSchema.describe("Main programming language; null when none is detected"),
    license: optionalTextSchema.describe("License identifier (SPDX); null when none is detected"),
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    pypi_package: optionalTextSchema.describe("Matching Python package; null when there is none"),
    downloads_monthly: downloadCountSchema.describe(
      "Monthly downloads of the linked packages (PyPI + npm + Hugging Face); 0 when none is linked; null when unknown (no figure was read for it), as in the datasets and the public database",
    ),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
    maintenance_score: componentScoreSchema.describe("Maintenance points, 0 to 25"),
    adoption_score: componentScoreSchema.describe("Adoption points, 0 to 25"),
    maturity_score: componentScoreSchema.describe("Maturity points, 0 to 25"),
    community_score: componentScoreSchema.describe("Community points, 0 to 25"),
    // Beyond the spec's table: the key of /api/v1/projects/{slug}, so a list item leads to its detail.
    slug: slugSchema,
  })
  .superRefine((r, ctx) => {
    checkTier(r, ctx);
    checkComponentSum(r, [r.maintenance_score, r.adoption_score, r.maturity_score, r.community_score], ctx);
  })
  .describe("Quality record");

/**
 * Items of /api/v1/trending, ordered by the requested window's star delta. The spec names only name,
 * stars_7d_delta and lifecycle_stage; the rest is what a leaderboard reader needs to act on a row.
 * Deltas are never negative (a day's gain counts from 0: a purge of fake stars is not lost momentum), and null
 * when the star count at the window's start is unknown (tracked for less than the window, without star history).
 */
export const trendingRecordSchema = z
  .strictObject({
    rank: z.int().min(1).describe("Position in the leaderboard, from 1"),
    full_name: fullNameSchema,
    name: repoNameSchema,
    slug: slugSchema,
    description: optionalTextSchema.describe("Short description; null when the repository has none"),
    language: optionalTextSchema.describe("Main programming language; null when none is detected"),
    domain: domainSchema,
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    stack_layer: stackLayerSchema.nullable().describe("Stack layer; null when unclassified"),
    stars: countSchema.describe("Star count now"),
    stars_7d_delta: z
      .int()
      .min(0)
      .nullable()
      .describe("Stars gained in the last 7 days; null when the count 7 days ago is unknown"),
    stars_30d_delta: z
      .int()
      .min(0)
      .nullable()
      .describe("Stars gained in the last 30 days; null when the count 30 days ago is unknown"),
    growth_pct: z
      .number()
      .min(0)
      .describe(
        "Stars gained in the requested window as a percentage of the stars at its start, that count floored at 25 so a tiny repository's first stars do not read as thousands of percent",
      ),
    lifecycle_stage: lifecycleStageSchema,
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
  })
  .superRefine(checkTier)
  .describe("Trending record");

/** Items of /api/v1/projects (search): enough to choose a project, then fetch its detail by slug. */
export const projectSummarySchema = z
  .strictObject({
    slug: slugSchema,
    full_name: fullNameSchema,
    name: repoNameSchema,
    description: optionalTextSchema.describe("Short description; null when the repository has none"),
    language: optionalTextSchema.describe("Main programming language; null when none is detected"),
    domain: domainSchema,
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    stack_layer: stackLayerSchema.nullable().describe("Stack layer; null when unclassified"),
    stars: countSchema.describe("Star count"),
    downloads_monthly: downloadCountSchema.describe(
      "Monthly downloads of the linked packages (PyPI + npm + Hugging Face); 0 when none is linked; null when unknown (no figure was read for it), as in the datasets and the public database",
    ),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
    lifecycle_stage: lifecycleStageSchema,
  })
  .superRefine(checkTier)
  .describe("Project search result");

/** `pis_` + 30 random base62 characters + a 6-character base62 checksum (DESIGN.md "Keys"). */
export const API_KEY_PATTERN = /^pis_[A-Za-z0-9]{36}$/;
export const API_KEY_PREFIX_PATTERN = /^pis_[A-Za-z0-9]{4,12}$/;

/** data of POST /api/v1/keys. An e-mail key is tier "free" too; its daily_limit is the higher quota. */
export const apiKeyRecordSchema = z
  .strictObject({
    key: z.string().regex(API_KEY_PATTERN).describe("Bearer token; returned once only, at creation"),
    prefix: z.string().regex(API_KEY_PREFIX_PATTERN).describe("Short identifying prefix of the key"),
    tier: keyRecordTierSchema,
    daily_limit: z.int().min(1).describe("Daily request quota of the key"),
  })
  .superRefine((r, ctx) => {
    if (!r.key.startsWith(r.prefix)) {
      ctx.addIssue({ code: "custom", path: ["prefix"], message: "prefix must be the start of the key" });
    }
  })
  .describe("API key record");

export type QualityRecord = z.infer<typeof qualityRecordSchema>;
export type TrendingRecord = z.infer<typeof trendingRecordSchema>;
export type ProjectSummary = z.infer<typeof projectSummarySchema>;
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;
