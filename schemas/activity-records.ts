// Records of the activity endpoints: the commit leaderboard (velocity), projects gaining contributors, lifecycle
// stage changes (transitions), packages with rising downloads, and a lab's detail with its projects and releases.
import { z } from "zod";
import {
  domainSchema,
  lifecycleStageSchema,
  qualityTierSchema,
  STACK_LAYERS,
  stackLayerSchema,
  TRENDING_REGISTRIES,
} from "./enums.ts";
import {
  checkTier,
  countSchema,
  dateTimeSchema,
  fullNameSchema,
  optionalTextSchema,
  qualityScoreSchema,
  repoNameSchema,
  slugSchema,
} from "./fields.ts";
import { releaseSchema } from "./project-detail.ts";

/** Newest releases a lab's detail shows; older ones are counted only. */
export const MAX_LAB_RELEASES = 20;

const daySchema = z.iso.date();
const rankSchema = z.int().min(1);
const description = optionalTextSchema.describe("Short description; null when the repository has none");
const language = optionalTextSchema.describe("Main programming language; null when none is detected");
const stackLayer = stackLayerSchema.nullable().describe("Stack layer; null when unclassified");

/** Items of /api/v1/velocity: projects by commits to the default branch in the last 30 days. */
export const velocityRecordSchema = z
  .strictObject({
    rank: rankSchema.describe("Position on the whole leaderboard, from 1"),
    domain_rank: rankSchema.describe("Position among the projects of its domain, from 1"),
    full_name: fullNameSchema,
    name: repoNameSchema,
    slug: slugSchema,
    description,
    language,
    domain: domainSchema,
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    stack_layer: stackLayer,
    commits_30d: z
      .int()
      .min(1)
      .describe("Commits to the default branch in the last 30 days (GitHub's count)"),
    commits_4w: countSchema
      .nullable()
      .describe(
        "Commits of the last velocity_weeks weeks of GitHub's weekly counts, the current partial week included; null when those counts are unknown or older than velocity_weeks_max_age_days (methodology)",
      ),
    commits_90d: countSchema.describe("Commits to the default branch in the last 90 days"),
    contributors: countSchema.nullable().describe("Contributors; null until the REST activity was read"),
    stars: countSchema.describe("Star count"),
    last_commit_at: dateTimeSchema
      .nullable()
      .describe("Last commit on the default branch; null when unknown"),
    lifecycle_stage: lifecycleStageSchema,
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
  })
  .superRefine(checkTier)
  .describe("Commit-activity record");

/**
 * Items of /api/v1/contributors/trending: projects gaining the most contributors within contributors_window_days
 * (methodology), the top of each stack layer. The sources give contributor counts, not people, so the leaderboard ranks projects by contributors gained.
 */
export const contributorsTrendingRecordSchema = z
  .strictObject({
    rank: rankSchema.describe("Position within its stack layer, from 1"),
    stack_layer: z.enum(STACK_LAYERS).describe("Stack layer whose leaderboard it is on"),
    full_name: fullNameSchema,
    name: repoNameSchema,
    slug: slugSchema,
    description,
    language,
    domain: domainSchema,
    stars: countSchema.describe("Star count"),
    contributors_start: countSchema.describe("Contributors at the first count of the window"),
    contributors_end: countSchema.describe("Contributors at the latest count of the window"),
    contributors_gained: z.int().min(1).describe("contributors_end - contributors_start"),
    growth_pct: z.number().min(0).describe("contributors_gained as % of contributors_start, one decimal"),
    start_date: daySchema.describe("Night of the first count in the window"),
    end_date: daySchema.describe("Night of the latest count in the window"),
    lifecycle_stage: lifecycleStageSchema,
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
  })
  .superRefine(checkTier)
  .superRefine((r, ctx) => {
    if (r.contributors_end - r.contributors_start !== r.contributors_gained) {
      ctx.addIssue({
        code: "custom",
        path: ["contributors_gained"],
        message: "contributors_gained must be contributors_end - contributors_start",
      });
    }
  })
  .describe("Contributor-growth record");

/** Items of /api/v1/transitions: one lifecycle stage change of a tracked project, newest first. */
export const transitionRecordSchema = z
  .strictObject({
    date: daySchema.describe("Night the change was observed"),
    full_name: fullNameSchema,
    name: repoNameSchema,
    slug: slugSchema,
    domain: domainSchema,
    stack_layer: stackLayer,
    from_stage: lifecycleStageSchema.describe("Stage before the change"),
    to_stage: lifecycleStageSchema.describe("Stage after the change"),
    lifecycle_stage: lifecycleStageSchema.describe(
      "Stage now (differs from to_stage when it changed again since)",
    ),
    stars: countSchema.describe("Star count now"),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
  })
  .superRefine(checkTier)
  .superRefine((r, ctx) => {
    if (r.from_stage === r.to_stage) {
      ctx.addIssue({ code: "custom", path: ["to_stage"], message: "a change must change the stage" });
    }
  })
  .describe("Lifecycle transition");

/** Items of /api/v1/dependencies/trending: PyPI and npm packages of tracked projects with rising downloads. */
export const dependencyTrendingRecordSchema = z
  .strictObject({
    rank: rankSchema.describe("Position within its registry, from 1"),
    registry: z.enum(TRENDING_REGISTRIES).describe("Registry: pypi or npm"),
    package: z.string().min(1).describe("Package name in the registry"),
    version: optionalTextSchema.describe("Latest version; null when unknown"),
    url: z.url().describe("Page of the package in its registry"),
    full_name: fullNameSchema.describe("Repository of the package (owner/repository)"),
    slug: slugSchema,
    domain: domainSchema,
    downloads_monthly: countSchema.describe("Downloads in the last 30 days"),
    downloads_weekly: countSchema
      .nullable()
      .describe("Downloads in the last 7 days; null when the registry gives no daily series"),
    growth_pct: z
      .number()
      .positive()
      .describe(
        "Download growth, %, one decimal, capped at dependencies_growth_cap_pct (methodology); growth_method says what is compared with what",
      ),
    growth_method: z
      .enum(["weekly_rate", "monthly_total"])
      .describe(
        "weekly_rate: the last 7 days' daily rate against the last 30 days'; monthly_total (npm without a daily series): the 30-day total against the one read dependencies_compare_days to dependencies_compare_max_days earlier",
      ),
    dependents: countSchema.describe("Tracked repositories whose packages declare this one"),
  })
  .describe("Trending package");

const labProject = z
  .strictObject({
    full_name: fullNameSchema,
    slug: slugSchema,
    domain: domainSchema,
    stack_layer: stackLayer,
    stars: countSchema.describe("Star count"),
    stars_7d_delta: countSchema
      .nullable()
      .describe("Stars gained in the last 7 days; null when the count 7 days ago is unknown"),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
    lifecycle_stage: lifecycleStageSchema,
    latest_release_tag: optionalTextSchema.describe("Tag of its latest GitHub release; null when none"),
    latest_release_at: dateTimeSchema
      .nullable()
      .describe("Time of its latest GitHub release; null when none"),
  })
  .superRefine(checkTier);

const labRelease = releaseSchema.extend({
  full_name: fullNameSchema.describe("Project the release belongs to"),
  slug: slugSchema,
});

/** data of /api/v1/labs/{slug}. */
export const labDetailSchema = z
  .strictObject({
    slug: slugSchema.describe("Lab identifier: a curated lab's slug, or a GitHub owner in lower case"),
    name: z.string().min(1).describe("Name of the lab"),
    kind: z
      .enum(["company", "academic", "nonprofit", "github-owner"])
      .describe(
        "company, academic or nonprofit for a curated lab; github-owner for one derived from an owner",
      ),
    source: z
      .enum(["curated", "owner"])
      .describe(
        "curated: listed in the service's list of labs; owner: a GitHub owner of several tracked projects",
      ),
    homepage: z.url().nullable().describe("Homepage of the lab; null when unknown"),
    owners: z.array(z.string().min(1)).describe("The GitHub owners publishing its projects"),
    project_count: z.int().min(1).describe("Tracked projects of the lab"),
    stars: countSchema.describe("Stars of its tracked projects, added up"),
    avg_quality_score: z.number().min(0).max(100).describe("Mean quality score of its projects, one decimal"),
    top_domain: domainSchema.describe("Domain with most of its projects (then most stars)"),
    top_project: fullNameSchema.describe("Its most-starred project"),
    domains: z
      .array(
        z.strictObject({
          domain: domainSchema,
          projects: z.int().min(1).describe("Its projects in the domain"),
        }),
      )
      .describe("Its projects by domain, most projects first"),
    projects: z.array(labProject).describe("Every tracked project of the lab, most stars first"),
    releases: z
      .strictObject({
        observed: countSchema.describe("Releases the service observed of its projects (GitHub, PyPI, npm)"),
        latest: z.array(labRelease).max(MAX_LAB_RELEASES).describe("The newest observed, newest first"),
      })
      .describe("Releases of its projects"),
    data_date: daySchema.describe("Night of the data (UTC)"),
  })
  .superRefine((d, ctx) => {
    if (d.projects.length !== d.project_count) {
      ctx.addIssue({
        code: "custom",
        path: ["projects"],
        message: "projects must list project_count projects",
      });
    }
  })
  .describe("Lab detail");

export type VelocityRecord = z.infer<typeof velocityRecordSchema>;
export type ContributorsTrendingRecord = z.infer<typeof contributorsTrendingRecordSchema>;
export type TransitionRecord = z.infer<typeof transitionRecordSchema>;
export type DependencyTrendingRecord = z.infer<typeof dependencyTrendingRecordSchema>;
export type LabDetail = z.infer<typeof labDetailSchema>;
