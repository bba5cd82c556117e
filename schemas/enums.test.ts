// The enumerations are part of the public interface: exact values, in the spec's order.
import { describe, expect, it } from "vitest";
import {
  ACCESS_TIERS,
  CORE_DOMAINS,
  DOMAINS,
  domainSchema,
  KEY_ACCESS_TIERS,
  KEY_RECORD_TIERS,
  keyRecordTier,
  LIFECYCLE_STAGES,
  QUALITY_TIER_RANGES,
  QUALITY_TIERS,
  STACK_LAYERS,
  tierForScore,
  WINDOW_DAYS,
  WINDOWS,
} from "./enums.ts";

describe("enumerations", () => {
  it("lists the 30 domains in the spec's order", () => {
    expect(DOMAINS).toEqual([
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
    ]);
    expect(new Set(DOMAINS).size).toBe(30);
  });

  it("marks the first 18 domains as the core set", () => {
    expect(CORE_DOMAINS).toEqual(DOMAINS.slice(0, 18));
    expect(CORE_DOMAINS.at(-1)).toBe("perception");
    expect(CORE_DOMAINS).not.toContain("llm-inference");
  });

  it("lists stack layers, lifecycle stages, windows and quality tiers exactly", () => {
    expect(STACK_LAYERS).toEqual([
      "model",
      "inference",
      "orchestration",
      "data",
      "eval",
      "interface",
      "infra",
    ]);
    expect(LIFECYCLE_STAGES).toEqual([
      "emerging",
      "launching",
      "growing",
      "established",
      "fading",
      "dormant",
    ]);
    expect(WINDOWS).toEqual(["7d", "30d"]);
    expect(WINDOW_DAYS).toEqual({ "7d": 7, "30d": 30 });
    expect(QUALITY_TIERS).toEqual(["verified", "established", "emerging", "experimental"]);
  });

  it("accepts domains case-sensitively", () => {
    expect(domainSchema.safeParse("3d-ai").success).toBe(true);
    expect(domainSchema.safeParse("MCP").success).toBe(false);
    expect(domainSchema.safeParse("").success).toBe(false);
  });

  it("represents the e-mail access tier publicly as tier free", () => {
    expect(ACCESS_TIERS).toEqual(["anonymous", "free", "email"]);
    expect(KEY_ACCESS_TIERS).toEqual(["free", "email"]);
    expect(KEY_RECORD_TIERS).toEqual(["free"]);
    expect(keyRecordTier("free")).toBe("free");
    expect(keyRecordTier("email")).toBe("free");
  });
});

describe("quality tiers by score", () => {
  it("has the spec's ranges", () => {
    expect(QUALITY_TIER_RANGES).toEqual({
      verified: { min: 80, max: 100 },
      established: { min: 60, max: 79 },
      emerging: { min: 40, max: 59 },
      experimental: { min: 0, max: 39 },
    });
  });

  it.each([
    [0, "experimental"],
    [39, "experimental"],
    [40, "emerging"],
    [59, "emerging"],
    [60, "established"],
    [79, "established"],
    [80, "verified"],
    [100, "verified"],
  ] as const)("maps %i to %s", (score, tier) => {
    expect(tierForScore(score)).toBe(tier);
  });

  it("maps every score 0–100 into the range of its tier", () => {
    for (let score = 0; score <= 100; score++) {
      const { min, max } = QUALITY_TIER_RANGES[tierForScore(score)];
      expect(score >= min && score <= max).toBe(true);
    }
  });

  it.each([101, -1, 39.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects %s", (score) => {
    expect(() => tierForScore(score)).toThrow(RangeError);
  });

  it("says what it expected", () => {
    expect(() => tierForScore(101)).toThrow("quality score must be an integer from 0 to 100, got 101");
  });
});
