// The closed value lists of the public API (SPEC.md "Enumerations"), each as a const tuple and a zod enum,
// plus the score → quality tier mapping. Everything else in schemas/ builds on these.
import { z } from "zod";

/** The 30 domains, in the spec's order (the order is part of the interface: it is how lists are shown). */
export const DOMAINS = [
  "mcp",
  "agents",
  "rag",
  "ai-coding",
  "voice-ai",
  "diffusion",
  "vector-db",
  "embeddings",
  "prompt-engineering",
  "ml-frameworks",
  "llm-tools",
  "nlp",
  "transformers",
  "generative-ai",
  "computer-vision",
  "data-engineering",
  "mlops",
  "perception",
  "llm-inference",
  "ai-evals",
  "fine-tuning",
  "document-ai",
  "ai-safety",
  "recommendation-systems",
  "audio-ai",
  "synthetic-data",
  "time-series",
  "multimodal",
  "3d-ai",
  "scientific-ml",
] as const;
export type Domain = (typeof DOMAINS)[number];

/**
 * The "18 domains" some descriptions of the service mention. The spec words it as "the first 19 values
 * minus the later additions" without naming the addition; we take the first 18 (llm-inference is the 19th).
 * Metadata only: all 30 domains are accepted everywhere (DESIGN.md).
 */
export const CORE_DOMAINS = DOMAINS.slice(0, 18) as readonly Domain[];

export const STACK_LAYERS = [
  "model",
  "inference",
  "orchestration",
  "data",
  "eval",
  "interface",
  "infra",
] as const;
export type StackLayer = (typeof STACK_LAYERS)[number];

export const LIFECYCLE_STAGES = [
  "emerging",
  "launching",
  "growing",
  "established",
  "fading",
  "dormant",
] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

export const WINDOWS = ["7d", "30d"] as const;
export type Window = (typeof WINDOWS)[number];
export const WINDOW_DAYS: Readonly<Record<Window, number>> = { "7d": 7, "30d": 30 };

/** The registries of /api/v1/dependencies/trending: those with download counts to compare week by month. */
export const TRENDING_REGISTRIES = ["pypi", "npm"] as const;
export type TrendingRegistry = (typeof TRENDING_REGISTRIES)[number];

export const QUALITY_TIERS = ["verified", "established", "emerging", "experimental"] as const;
export type QualityTier = (typeof QUALITY_TIERS)[number];

/** Inclusive score ranges of each tier (SPEC.md: verified = 80 and above, … experimental = 0 to 39). */
export const QUALITY_TIER_RANGES: Readonly<Record<QualityTier, { min: number; max: number }>> = {
  verified: { min: 80, max: 100 },
  established: { min: 60, max: 79 },
  emerging: { min: 40, max: 59 },
  experimental: { min: 0, max: 39 },
};

/** The tier of an integer quality score 0–100; throws RangeError for anything else. */
export function tierForScore(score: number): QualityTier {
  if (!Number.isInteger(score) || score < 0 || score > 100) {
    throw new RangeError(`quality score must be an integer from 0 to 100, got ${score}`);
  }
  const tier = QUALITY_TIERS.find((t) => score >= QUALITY_TIER_RANGES[t].min);
  // Unreachable: experimental starts at 0. Kept so the type is QualityTier without a cast.
  if (tier === undefined) throw new RangeError(`no quality tier covers score ${score}`);
  return tier;
}

/**
 * Access tiers for quotas: no key, a key created without e-mail, a key created with e-mail.
 * The spec's key record types `tier` as the enum {free} ("all tiers of access are free"), so an e-mail
 * key is shown publicly as tier "free" with the higher daily_limit; "email" is an internal name only.
 */
export const ACCESS_TIERS = ["anonymous", "free", "email"] as const;
export type AccessTier = (typeof ACCESS_TIERS)[number];

/** The access tiers a key can have (anonymous callers have no key). */
export const KEY_ACCESS_TIERS = ["free", "email"] as const satisfies readonly AccessTier[];
export type KeyAccessTier = (typeof KEY_ACCESS_TIERS)[number];

/** The `tier` values of the public API key record (SPEC.md: "Enum: free"). */
export const KEY_RECORD_TIERS = ["free"] as const;
export type KeyRecordTier = (typeof KEY_RECORD_TIERS)[number];

/** How a key's access tier is shown in the public key record. */
export function keyRecordTier(_tier: KeyAccessTier): KeyRecordTier {
  return "free";
}

export const domainSchema = z.enum(DOMAINS).describe("Domain: one of the 30 values of the taxonomy");
export const stackLayerSchema = z.enum(STACK_LAYERS).describe("Layer of the AI stack the project belongs to");
export const lifecycleStageSchema = z.enum(LIFECYCLE_STAGES).describe("Lifecycle stage derived from history");
export const windowSchema = z.enum(WINDOWS).describe("Time window: 7d or 30d");
export const qualityTierSchema = z.enum(QUALITY_TIERS).describe("Quality tier derived from quality_score");
export const keyRecordTierSchema = z.enum(KEY_RECORD_TIERS).describe("Tier of the key; always free");
