// Records accept what the service should send and refuse what it must not: inconsistent tiers, stray
// columns, empty strings where null is meant.
import { describe, expect, it } from "vitest";
import {
  apiKeyRecordSchema,
  projectSummarySchema,
  type QualityRecord,
  qualityRecordSchema,
  type TrendingRecord,
  trendingRecordSchema,
} from "./records.ts";

const quality: QualityRecord = {
  full_name: "acme/toolhub-mcp",
  name: "toolhub-mcp",
  description: "A registry of MCP tools",
  stars: 4210,
  forks: 311,
  language: "Python",
  license: "MIT",
  subcategory: "registries",
  pypi_package: "toolhub-mcp",
  downloads_monthly: 52_000,
  quality_score: 71,
  quality_tier: "established",
  maintenance_score: 20,
  adoption_score: 15,
  maturity_score: 18,
  community_score: 18,
  slug: "acme--toolhub-mcp",
};

const trending: TrendingRecord = {
  rank: 1,
  full_name: "acme/toolhub-mcp",
  name: "toolhub-mcp",
  slug: "acme--toolhub-mcp",
  description: null,
  language: null,
  domain: "mcp",
  subcategory: null,
  stack_layer: "orchestration",
  stars: 4210,
  stars_7d_delta: 812,
  stars_30d_delta: 1904,
  growth_pct: 23.9,
  lifecycle_stage: "growing",
  quality_score: 71,
  quality_tier: "established",
};

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("quality record", () => {
  it("accepts a full record and one with every nullable field null", () => {
    expect(qualityRecordSchema.parse(quality)).toEqual(quality);
    const bare = {
      ...quality,
      description: null,
      language: null,
      license: null,
      subcategory: null,
      pypi_package: null,
      downloads_monthly: null,
    };
    expect(qualityRecordSchema.safeParse(bare).success).toBe(true);
    // a real 0 (a linked package nobody downloaded) is a figure, as an unknown one (null) is not
    expect(qualityRecordSchema.safeParse({ ...quality, downloads_monthly: 0 }).success).toBe(true);
  });

  it("rejects a tier that does not match the score", () => {
    const result = qualityRecordSchema.safeParse({ ...quality, quality_tier: "verified" });
    expect(messages(result)).toEqual(["quality_tier verified covers scores 80–100, not 71"]);
  });

  it("rejects components that do not add up to the score", () => {
    const result = qualityRecordSchema.safeParse({ ...quality, community_score: 17 });
    expect(messages(result)).toEqual(["quality_score 71 differs from the sum of its components (70)"]);
  });

  it.each([
    ["component above 25", { maintenance_score: 26 }],
    ["score above 100", { quality_score: 101 }],
    ["fractional stars", { stars: 1.5 }],
    ["negative downloads", { downloads_monthly: -1 }],
    ["empty description instead of null", { description: "" }],
    ["fractional downloads", { downloads_monthly: 1.5 }],
    ["unknown tier", { quality_tier: "gold" }],
    ["full_name without owner", { full_name: "toolhub-mcp" }],
    ["a stray column", { run_date: "2025-01-01" }],
  ])("rejects %s", (_label, change) => {
    expect(qualityRecordSchema.safeParse({ ...quality, ...change }).success).toBe(false);
  });
});

describe("trending record", () => {
  it("accepts a record with nulls and an unknown 30-day delta", () => {
    expect(trendingRecordSchema.safeParse(trending).success).toBe(true);
    expect(trendingRecordSchema.safeParse({ ...trending, stars_30d_delta: null }).success).toBe(true);
  });

  it("rejects a negative delta and a missing growth", () => {
    expect(trendingRecordSchema.safeParse({ ...trending, stars_7d_delta: -3 }).success).toBe(false);
    expect(trendingRecordSchema.safeParse({ ...trending, growth_pct: null }).success).toBe(false);
  });

  it("rejects a rank of 0, an unknown stage and an unknown domain", () => {
    expect(trendingRecordSchema.safeParse({ ...trending, rank: 0 }).success).toBe(false);
    expect(trendingRecordSchema.safeParse({ ...trending, lifecycle_stage: "booming" }).success).toBe(false);
    expect(trendingRecordSchema.safeParse({ ...trending, domain: "crypto" }).success).toBe(false);
  });
});

describe("project summary", () => {
  it("accepts a search result", () => {
    const summary = {
      slug: "acme--toolhub-mcp",
      full_name: "acme/toolhub-mcp",
      name: "toolhub-mcp",
      description: null,
      language: "Python",
      domain: "mcp",
      subcategory: null,
      stack_layer: null,
      stars: 10,
      downloads_monthly: 0,
      quality_score: 12,
      quality_tier: "experimental",
      lifecycle_stage: "emerging",
    };
    expect(projectSummarySchema.safeParse(summary).success).toBe(true);
    expect(projectSummarySchema.safeParse({ ...summary, quality_tier: "emerging" }).success).toBe(false);
  });
});

describe("API key record", () => {
  const key = `pis_${"Ab3".repeat(10)}x9Y8z7`;
  const record = { key, prefix: key.slice(0, 12), tier: "free", daily_limit: 10_000 };

  it("accepts a key created with e-mail as tier free with the higher limit", () => {
    expect(apiKeyRecordSchema.parse(record)).toEqual(record);
  });

  it.each([
    ["tier email", { tier: "email" }],
    ["a key without the pis_ prefix", { key: key.replace("pis_", "pk_x") }],
    ["a key of the wrong length", { key: `${key}A` }],
    ["a prefix that is not the key's", { prefix: "pis_zzzzzzzz" }],
    ["a zero limit", { daily_limit: 0 }],
  ])("rejects %s", (_label, change) => {
    expect(apiKeyRecordSchema.safeParse({ ...record, ...change }).success).toBe(false);
  });

  it("never puts the key in its messages", () => {
    const result = apiKeyRecordSchema.safeParse({ ...record, prefix: "pis_zzzzzzzz" });
    expect(JSON.stringify(result.error?.issues)).not.toContain(key);
  });
});
