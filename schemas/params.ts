// Query and path parameters of every endpoint, with the spec's ranges and defaults. Objects are strict:
// an unknown parameter is rejected (invalid_parameter naming it), so a typo such as `limt` is visible.
import { z } from "zod";
import { WHATS_NEW_KINDS } from "./digest-records.ts";
import { LIFECYCLE_STAGES, QUALITY_TIERS, STACK_LAYERS, TRENDING_REGISTRIES, WINDOWS } from "./enums.ts";
import {
  domainParam,
  enumParam,
  intParam,
  projectRefListParam,
  projectRefParam,
  slugParam,
  subcategoryParam,
  textParam,
  withRule,
} from "./param-fields.ts";

/** Page sizes (SPEC.md "Page sizes"; minimum 1 where the spec leaves it blank) and the other ranges. */
export const LIMITS = {
  quality: { min: 1, default: 50, max: 500 },
  datasetsQuality: { min: 1, default: 500, max: 2000 },
  mcpScores: { min: 1, default: 50, max: 200 },
  trending: { min: 1, default: 20, max: 50 },
  projects: { min: 1, default: 20, max: 50 },
  /** Our choices for the endpoints whose parameters the spec does not show. */
  leaderboard: { min: 1, default: 20, max: 50 },
  feed: { min: 1, default: 20, max: 100 },
  transitions: { min: 1, default: 50, max: 200 },
  digest: { min: 1, default: 50, max: 200 },
} as const;
export const MIN_SCORE = { min: 0, max: 100 } as const;
export const WHATS_NEW_DAYS = { min: 1, default: 7, max: 30 } as const;
/** Look-back in days for hn (like whats-new) and for papers and transitions (our choice). */
export const HN_DAYS = { min: 1, default: 7, max: 30 } as const;
export const HISTORY_DAYS = { min: 1, default: 30, max: 90 } as const;
export const BULK_MAX = 20;
/** Projects compared side by side by GET /api/v1/compare and /compare. */
export const COMPARE = { min: 2, max: 5 } as const;
/** Longest accepted free text (search text). */
export const MAX_TEXT = 100;

const limit = (l: { min: number; default: number; max: number }) =>
  intParam(l.min, l.max).default(l.default).describe(`Page size, ${l.min} to ${l.max}, default ${l.default}`);
const offset = () => intParam(0).default(0).describe("Number of matching items to skip, default 0");
const days = (d: { min: number; default: number; max: number }, what: string) =>
  intParam(d.min, d.max)
    .default(d.default)
    .describe(`${what}, ${d.min} to ${d.max} days, default ${d.default}`);
const minScore = () =>
  intParam(MIN_SCORE.min, MIN_SCORE.max).optional().describe("Only projects scoring at least this, 0 to 100");
const qualityTier = () => enumParam(QUALITY_TIERS).optional().describe("Only projects of this quality tier");
const subcategory = () => subcategoryParam().optional().describe("Only projects of this subcategory");
const category = () => subcategoryParam().optional().describe("Only projects of this category (subcategory)");
const stackLayer = () => enumParam(STACK_LAYERS).optional().describe("Only projects of this stack layer");
const domainFilter = () => domainParam().optional().describe("Only projects of this domain");
const window = (fallback: (typeof WINDOWS)[number]) =>
  enumParam(WINDOWS).default(fallback).describe(`Time window, 7d or 30d, default ${fallback}`);

export const qualityParams = z
  .strictObject({
    domain: domainParam().describe("Domain to list (required): one of the 30 domains"),
    subcategory: subcategory(),
    quality_tier: qualityTier(),
    min_score: minScore(),
    limit: limit(LIMITS.quality),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/quality");

/** Same data in bulk; min_score is not a parameter here. */
export const datasetsQualityParams = z
  .strictObject({
    domain: domainParam().describe("Domain to export (required): one of the 30 domains"),
    subcategory: subcategory(),
    quality_tier: qualityTier(),
    limit: limit(LIMITS.datasetsQuality),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/datasets/quality");

/** Alias of /quality with domain fixed to mcp: no domain parameter; the shim echoes domain "mcp" in
 *  meta.query. offset is kept because the alias pages like /quality. */
export const mcpScoresParams = z
  .strictObject({
    quality_tier: qualityTier(),
    subcategory: subcategoryParam("mcp").optional().describe("Only projects of this subcategory (of mcp)"),
    min_score: minScore(),
    limit: limit(LIMITS.mcpScores),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/mcp/scores");

export const trendingParams = z
  .strictObject({
    window: window("7d"),
    domain: domainFilter(),
    stack_layer: stackLayer(),
    category: category(),
    limit: limit(LIMITS.trending),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/trending");

export const projectsParams = z
  .strictObject({
    q: textParam(MAX_TEXT).optional().describe("Text searched in project names"),
    category: category(),
    stack_layer: stackLayer(),
    domain: domainFilter(),
    limit: limit(LIMITS.projects),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/projects");

/** Parameter form: `slugs=a,b,owner/c` (comma-separated, one parameter; commas never occur in slugs). */
export const projectsBulkParams = z
  .strictObject({
    slugs: projectRefListParam(BULK_MAX).describe(
      `Comma-separated project slugs or owner/repo names, 1 to ${BULK_MAX}, each once (required)`,
    ),
  })
  .describe("Query parameters of GET /api/v1/projects/bulk");

/** `projects=a,b,owner/c`: 2 to 5 projects to compare, each once. */
export const compareParams = z
  .strictObject({
    projects: projectRefListParam(COMPARE.max, COMPARE.min).describe(
      `Comma-separated project slugs or owner/repo names, ${COMPARE.min} to ${COMPARE.max}, each once (required)`,
    ),
  })
  .describe("Query parameters of GET /api/v1/compare and /compare");

/** Beyond the spec's days: the digest is one typed list, so it pages and filters by kind and domain. */
export const whatsNewParams = z
  .strictObject({
    days: days(WHATS_NEW_DAYS, "Look-back"),
    kind: enumParam(WHATS_NEW_KINDS)
      .optional()
      .describe("Only items of this kind: post, release or trending"),
    domain: domainFilter(),
    limit: limit(LIMITS.digest),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/whats-new");

/** A briefing a week per domain accumulates, so the list pages too. */
export const briefingsParams = z
  .strictObject({ domain: domainFilter(), limit: limit(LIMITS.feed), offset: offset() })
  .describe("Query parameters of GET /api/v1/briefings");

/**
 * The commit leaderboard has one window: GitHub counts commits over 30 days for every repository, while weekly
 * counts exist only for the repositories whose REST activity was read lately (shown beside, never ranked on).
 */
export const velocityParams = z
  .strictObject({
    domain: domainFilter(),
    stack_layer: stackLayer(),
    limit: limit(LIMITS.leaderboard),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/velocity");

/** One window too: contributor counts are read from GitHub as its REST budget allows, often days apart. */
export const contributorsTrendingParams = z
  .strictObject({
    stack_layer: stackLayer(),
    domain: domainFilter(),
    limit: limit(LIMITS.leaderboard),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/contributors/trending");

/** Growth compares the last week's daily rate with the last month's, so there is no window to choose. */
export const dependenciesTrendingParams = z
  .strictObject({
    registry: enumParam(TRENDING_REGISTRIES)
      .optional()
      .describe("Only packages of this registry (pypi or npm); both when omitted"),
    domain: domainParam().optional().describe("Only packages of projects of this domain"),
    limit: limit(LIMITS.leaderboard),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/dependencies/trending");

export const transitionsParams = z
  .strictObject({
    days: days(HISTORY_DAYS, "Look-back"),
    domain: domainFilter(),
    from_stage: enumParam(LIFECYCLE_STAGES).optional().describe("Only changes out of this lifecycle stage"),
    to_stage: enumParam(LIFECYCLE_STAGES).optional().describe("Only changes into this lifecycle stage"),
    limit: limit(LIMITS.transitions),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/transitions");

export const hnParams = z
  .strictObject({ days: days(HN_DAYS, "Look-back"), limit: limit(LIMITS.feed), offset: offset() })
  .describe("Query parameters of GET /api/v1/hn");

export const papersParams = z
  .strictObject({
    q: textParam(MAX_TEXT).optional().describe("Text searched in paper titles"),
    domain: domainFilter(),
    // optional: the papers projects implement are often years old, and a fixed look-back would hide them all
    days: intParam(HISTORY_DAYS.min, HISTORY_DAYS.max)
      .optional()
      .describe(
        `Only papers first published in the last this many days, ${HISTORY_DAYS.min} to ${HISTORY_DAYS.max}; every paper when omitted`,
      ),
    limit: limit(LIMITS.feed),
    offset: offset(),
  })
  .describe("Query parameters of GET /api/v1/papers");

/** Endpoints without query parameters (status, tables, workflows, methodology, details, POSTs). */
export const noParams = z.strictObject({}).describe("This endpoint takes no query parameters");

export const projectPathParams = z
  .strictObject({
    slug: projectRefParam().describe("Project slug, or owner/repo URL-encoded as one segment"),
  })
  .describe("Path parameters of GET /api/v1/projects/{slug}");

/** The same detail addressed as GitHub spells it, in two path segments: /api/v1/projects/{owner}/{repo}. */
export const projectOwnerRepoPathParams = z
  .strictObject({
    owner: withRule(
      z
        .string()
        .max(MAX_TEXT)
        .regex(/^[A-Za-z0-9-]+$/),
      "ref",
      "a repository owner of letters, digits and hyphens",
    ).describe("Repository owner (any case)"),
    repo: withRule(
      z
        .string()
        .max(MAX_TEXT)
        .regex(/^[A-Za-z0-9._-]+$/),
      "ref",
      'a repository name of letters, digits, ".", "_" and "-"',
    ).describe("Repository name (any case)"),
  })
  .describe("Path parameters of GET /api/v1/projects/{owner}/{repo}");

export const qualityLookupPathParams = z
  .strictObject({
    domain: domainParam().describe("Domain of the repository"),
    repo: projectRefParam().describe("Project slug or repository name, or owner/repo URL-encoded"),
  })
  .describe("Path parameters of GET /api/v1/quality/{domain}/{repo}");

export const slugPathParams = z
  .strictObject({ slug: slugParam().describe("Slug of the lab or briefing") })
  .describe("Path parameters of GET /api/v1/labs/{slug} and /api/v1/briefings/{slug}");
