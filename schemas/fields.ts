// Field schemas shared by records and parameters: repository names, slugs, counts and scores.
// Patterns follow GitHub's naming rules; slugs are one URL path segment (DESIGN.md "Slugs").
import { z } from "zod";
import { QUALITY_TIER_RANGES, type QualityTier, tierForScore } from "./enums.ts";

/** GitHub owner (letters, digits, hyphens) and repository (also dots and underscores). */
export const FULL_NAME_PATTERN = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;
/** A project slug: URL-unreserved characters only, starting with a letter or digit (so never "." or ".."). */
export const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
/** What project lookups accept: a slug, or owner/repo (which also resolves, DESIGN.md). */
export const PROJECT_REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9._-]+)?$/;
export const MAX_SLUG_LENGTH = 200;

/**
 * A project's slug from a reference, as feat_repos.sql derives it: lower(owner) || '--' || lower(name); a slug is
 * lower-cased. So owner/repo, Owner/Repo and owner--repo name one project.
 */
export function slugOf(ref: string): string {
  const text = ref.toLowerCase();
  const slash = text.indexOf("/");
  return slash === -1 ? text : `${text.slice(0, slash)}--${text.slice(slash + 1)}`;
}

/** The four score components, each worth 0–25 points, summing to quality_score (DESIGN.md "Scores"). */
export const SCORE_COMPONENTS = ["maintenance", "adoption", "maturity", "community"] as const;
export type ScoreComponent = (typeof SCORE_COMPONENTS)[number];
export const COMPONENT_MAX_POINTS = 25;

export const fullNameSchema = z.string().regex(FULL_NAME_PATTERN).describe("owner/repository");
export const repoNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]+$/)
  .describe("Repository name");
export const slugSchema = z
  .string()
  .max(MAX_SLUG_LENGTH)
  .regex(SLUG_PATTERN)
  .describe("Stable URL-safe project identifier derived from owner/repo");
export const projectRefSchema = z
  .string()
  .max(MAX_SLUG_LENGTH)
  .regex(PROJECT_REF_PATTERN)
  .describe("A project slug, or owner/repo");

export const countSchema = z.int().min(0);
/**
 * A download (or pull) figure: null when unknown — no figure was read for it (a list that states none, a registry
 * never collected) — in the JSON as in the Parquet datasets and the public database, never 0 in its place; 0 is a
 * figure read as 0. Unknown sorts last in either direction (DuckDB's default NULLS LAST).
 */
export const downloadCountSchema = countSchema.nullable();
export const qualityScoreSchema = z.int().min(0).max(100).describe("Quality score, 0 to 100");
export const componentScoreSchema = z.int().min(0).max(COMPONENT_MAX_POINTS);
/** Text that may be absent upstream (no description, no detected language or license): null, never "". */
export const optionalTextSchema = z.string().min(1).nullable();
export const dateTimeSchema = z.iso.datetime({ offset: true });

interface ScoredRecord {
  quality_score: number;
  quality_tier: QualityTier;
}

/** Adds an issue when quality_tier does not match quality_score's range. */
export function checkTier(record: ScoredRecord, ctx: z.RefinementCtx): void {
  // The score's own range check reports a bad score; only compare tiers for a valid one.
  if (!qualityScoreSchema.safeParse(record.quality_score).success) return;
  if (tierForScore(record.quality_score) === record.quality_tier) return;
  const { min, max } = QUALITY_TIER_RANGES[record.quality_tier];
  ctx.addIssue({
    code: "custom",
    path: ["quality_tier"],
    message: `quality_tier ${record.quality_tier} covers scores ${min}–${max}, not ${record.quality_score}`,
  });
}

/** Adds an issue when the four component points do not add up to quality_score. */
export function checkComponentSum(
  record: ScoredRecord,
  points: readonly number[],
  ctx: z.RefinementCtx,
): void {
  const sum = points.reduce((a, b) => a + b, 0);
  if (sum === record.quality_score) return;
  ctx.addIssue({
    code: "custom",
    path: ["quality_score"],
    message: `quality_score ${record.quality_score} differs from the sum of its components (${sum})`,
  });
}
