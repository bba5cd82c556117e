// data of /api/v1/projects/{slug} (and items of /api/v1/projects/bulk): repository metrics, downloads,
// tier, lifecycle stage, momentum, hype ratio, releases, and an explanation of every score component.
import { z } from "zod";
import { domainSchema, lifecycleStageSchema, qualityTierSchema, stackLayerSchema } from "./enums.ts";
import {
  COMPONENT_MAX_POINTS,
  checkComponentSum,
  checkTier,
  componentScoreSchema,
  countSchema,
  dateTimeSchema,
  fullNameSchema,
  optionalTextSchema,
  qualityScoreSchema,
  repoNameSchema,
  slugSchema,
} from "./fields.ts";

/** Most recent releases shown in a detail; older ones are counted only. */
export const MAX_DETAIL_RELEASES = 10;

const packageDownloads = z.strictObject({
  package: z.string().min(1).describe("Package or image name in the registry"),
  monthly: countSchema.describe("Downloads (pulls for images) in the last 30 days"),
});

const scoreInput = z.strictObject({
  name: z.string().min(1).describe("Input of the component, as named in the methodology"),
  value: z
    .union([z.number(), z.string(), z.boolean(), z.null()])
    .describe("Observed value; null when unknown"),
  points: z.number().min(0).describe("Points this input contributed before rounding"),
});

const componentExplanation = z.strictObject({
  points: componentScoreSchema.describe("Points of the component, 0 to 25"),
  max_points: z.literal(COMPONENT_MAX_POINTS),
  inputs: z.array(scoreInput).describe("The inputs and the points each gave"),
});

const release = z.strictObject({
  tag: z.string().min(1),
  name: optionalTextSchema.describe("Release title; null when it has none"),
  published_at: dateTimeSchema,
  prerelease: z.boolean(),
  url: z.url(),
});

export const projectDetailSchema = z
  .strictObject({
    slug: slugSchema,
    full_name: fullNameSchema,
    owner: z.string().regex(/^[A-Za-z0-9-]+$/),
    name: repoNameSchema,
    description: optionalTextSchema.describe("Short description; null when the repository has none"),
    url: z.url().describe("Repository page"),
    homepage: z.url().nullable().describe("Project homepage; null when none is set"),
    language: optionalTextSchema.describe("Main programming language; null when none is detected"),
    license: optionalTextSchema.describe("License identifier (SPDX); null when none is detected"),
    topics: z.array(z.string().min(1)),
    domain: domainSchema,
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    stack_layer: stackLayerSchema.nullable().describe("Stack layer; null when unclassified"),
    archived: z.boolean(),
    created_at: dateTimeSchema,
    pushed_at: dateTimeSchema.nullable().describe("Last push; null when the repository is empty"),
    metrics: z.strictObject({
      stars: countSchema,
      forks: countSchema,
      open_issues: countSchema,
      watchers: countSchema,
      contributors: countSchema
        .nullable()
        .describe("null when the host does not report it (very large repos)"),
      commits_30d: countSchema.describe("Commits to the default branch in the last 30 days"),
    }),
    downloads: z.strictObject({
      monthly_total: countSchema.describe("Sum over the linked packages; 0 when none is linked"),
      pypi: packageDownloads.nullable(),
      npm: packageDownloads.nullable(),
      docker: packageDownloads.nullable(),
    }),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
    score_explanation: z.strictObject({
      maintenance: componentExplanation,
      adoption: componentExplanation,
      maturity: componentExplanation,
      community: componentExplanation,
    }),
    lifecycle_stage: lifecycleStageSchema,
    momentum: z.strictObject({
      stars_7d_delta: z.int(),
      stars_30d_delta: z.int(),
      growth_pct_30d: z
        .number()
        .nullable()
        .describe("stars_30d_delta as % of the stars 30 days ago; null if 0"),
      downloads_change_pct_30d: z
        .number()
        .nullable()
        .describe("Change of monthly downloads against the previous 30 days, %; null without a baseline"),
    }),
    hype_ratio: z
      .number()
      .min(0)
      .nullable()
      .describe("Stars per monthly download (attention against use); null when monthly_total is 0"),
    releases: z.strictObject({
      count: countSchema.describe("Releases published in total"),
      latest: z.array(release).max(MAX_DETAIL_RELEASES).describe("Newest first"),
    }),
    data_date: z.iso.date().describe("Day of the data snapshot (UTC)"),
  })
  .superRefine((d, ctx) => {
    checkTier(d, ctx);
    const e = d.score_explanation;
    checkComponentSum(
      d,
      [e.maintenance.points, e.adoption.points, e.maturity.points, e.community.points],
      ctx,
    );
    if (`${d.owner}/${d.name}` !== d.full_name) {
      ctx.addIssue({ code: "custom", path: ["full_name"], message: "full_name must be owner/name" });
    }
  })
  .describe("Project detail");

export type ProjectDetail = z.infer<typeof projectDetailSchema>;
