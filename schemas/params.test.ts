// Every default and range of the spec's parameters, checked through parseParams as the shim uses it:
// defaults filled in exactly, each bound accepted, one past each bound rejected.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { Domain, QualityTier } from "./enums.ts";
import {
  briefingsParams,
  contributorsTrendingParams,
  datasetsQualityParams,
  dependenciesTrendingParams,
  hnParams,
  mcpScoresParams,
  noParams,
  papersParams,
  projectsBulkParams,
  projectsParams,
  qualityParams,
  transitionsParams,
  trendingParams,
  velocityParams,
  whatsNewParams,
} from "./params.ts";
import { parseParams } from "./parse-params.ts";

const parse = (schema: z.ZodObject, query: Record<string, string>) => parseParams(schema, query);

describe("defaults", () => {
  it.each([
    ["quality", qualityParams, { domain: "rag" }, { domain: "rag", limit: 50, offset: 0 }],
    ["datasets/quality", datasetsQualityParams, { domain: "rag" }, { domain: "rag", limit: 500, offset: 0 }],
    ["mcp/scores", mcpScoresParams, {}, { limit: 50, offset: 0 }],
    ["trending", trendingParams, {}, { window: "7d", limit: 20, offset: 0 }],
    ["projects", projectsParams, {}, { limit: 20, offset: 0 }],
    ["whats-new", whatsNewParams, {}, { days: 7, limit: 50, offset: 0 }],
    ["briefings", briefingsParams, {}, { limit: 20, offset: 0 }],
    ["velocity", velocityParams, {}, { limit: 20, offset: 0 }],
    ["contributors/trending", contributorsTrendingParams, {}, { limit: 20, offset: 0 }],
    ["dependencies/trending", dependenciesTrendingParams, {}, { limit: 20, offset: 0 }],
    ["transitions", transitionsParams, {}, { days: 30, limit: 50, offset: 0 }],
    ["hn", hnParams, {}, { days: 7, limit: 20, offset: 0 }],
    ["papers", papersParams, {}, { limit: 20, offset: 0 }],
    ["no-parameter endpoints", noParams, {}, {}],
  ] as const)("%s fills in its defaults", (_name, schema, query, expected) => {
    expect(parse(schema, query)).toEqual({ ok: true, value: expected });
  });

  it("types the parsed values for the shim", () => {
    const result = parseParams(qualityParams, { domain: "rag" });
    if (!result.ok) throw new Error(result.message);
    expectTypeOf(result.value.domain).toEqualTypeOf<Domain>();
    expectTypeOf(result.value.limit).toEqualTypeOf<number>();
    expectTypeOf(result.value.min_score).toEqualTypeOf<number | undefined>();
    expectTypeOf(result.value.quality_tier).toEqualTypeOf<QualityTier | undefined>();
    const bulk = parseParams(projectsBulkParams, { slugs: "a" });
    if (bulk.ok) expectTypeOf(bulk.value.slugs).toEqualTypeOf<string[]>();
  });

  it("keeps every given filter of /quality, typed", () => {
    const query = {
      domain: "mcp",
      subcategory: "mcp-registries",
      quality_tier: "verified",
      min_score: "80",
      limit: "10",
      offset: "20",
    };
    expect(parse(qualityParams, query)).toEqual({
      ok: true,
      value: {
        domain: "mcp",
        subcategory: "mcp-registries",
        quality_tier: "verified",
        min_score: 80,
        limit: 10,
        offset: 20,
      },
    });
  });
});

// [endpoint, schema, base query, parameter, lowest valid, highest valid (null: no upper bound)]
const ranges = [
  ["quality", qualityParams, { domain: "mcp" }, "limit", 1, 500],
  ["quality", qualityParams, { domain: "mcp" }, "min_score", 0, 100],
  ["quality", qualityParams, { domain: "mcp" }, "offset", 0, null],
  ["datasets/quality", datasetsQualityParams, { domain: "mcp" }, "limit", 1, 2000],
  ["datasets/quality", datasetsQualityParams, { domain: "mcp" }, "offset", 0, null],
  ["mcp/scores", mcpScoresParams, {}, "limit", 1, 200],
  ["mcp/scores", mcpScoresParams, {}, "min_score", 0, 100],
  ["trending", trendingParams, {}, "limit", 1, 50],
  ["projects", projectsParams, {}, "limit", 1, 50],
  ["whats-new", whatsNewParams, {}, "days", 1, 30],
  ["whats-new", whatsNewParams, {}, "limit", 1, 200],
  ["briefings", briefingsParams, {}, "limit", 1, 100],
  ["velocity", velocityParams, {}, "limit", 1, 50],
  ["contributors/trending", contributorsTrendingParams, {}, "limit", 1, 50],
  ["dependencies/trending", dependenciesTrendingParams, {}, "limit", 1, 50],
  ["transitions", transitionsParams, {}, "days", 1, 90],
  ["transitions", transitionsParams, {}, "limit", 1, 200],
  ["hn", hnParams, {}, "days", 1, 30],
  ["hn", hnParams, {}, "limit", 1, 100],
  ["papers", papersParams, {}, "days", 1, 90],
  ["papers", papersParams, {}, "limit", 1, 100],
] as const;

describe.each(ranges)("%s %s", (_name, schema, base, param, min, max) => {
  it(`accepts ${param}=${min}${max === null ? "" : ` and ${max}`}`, () => {
    for (const value of max === null ? [min, 1_000_000] : [min, max]) {
      const result = parse(schema, { ...base, [param]: String(value) });
      expect(result.ok && (result.value as Record<string, unknown>)[param]).toBe(value);
    }
  });

  it(`rejects ${param}=${min - 1}${max === null ? "" : ` and ${max + 1}`}`, () => {
    for (const value of max === null ? [min - 1] : [min - 1, max + 1]) {
      const result = parse(schema, { ...base, [param]: String(value) });
      expect(result).toMatchObject({ ok: false, code: "invalid_parameter" });
    }
  });
});

describe("parameters that are not on an endpoint", () => {
  it("rejects min_score on datasets/quality and domain on mcp/scores", () => {
    expect(parse(datasetsQualityParams, { domain: "mcp", min_score: "50" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: 'Unknown parameter "min_score"; allowed: domain, subcategory, quality_tier, limit, offset.',
    });
    expect(parse(mcpScoresParams, { domain: "mcp" })).toMatchObject({ ok: false, code: "invalid_parameter" });
  });
});

describe("enumerated parameters", () => {
  it("accepts both windows and every stack layer, rejects others", () => {
    expect(parse(trendingParams, { window: "30d" })).toMatchObject({ ok: true, value: { window: "30d" } });
    expect(parse(trendingParams, { window: "14d" })).toMatchObject({ ok: false, code: "invalid_parameter" });
    expect(parse(projectsParams, { stack_layer: "infra" })).toMatchObject({ ok: true });
    expect(parse(projectsParams, { stack_layer: "hardware" })).toMatchObject({
      ok: false,
      code: "invalid_parameter",
    });
    expect(parse(dependenciesTrendingParams, { registry: "npm" })).toMatchObject({ ok: true });
    expect(parse(transitionsParams, { to_stage: "fading" })).toMatchObject({ ok: true });
    expect(parse(transitionsParams, { from_stage: "growing" })).toMatchObject({ ok: true });
    expect(parse(dependenciesTrendingParams, { registry: "docker" })).toMatchObject({
      ok: false,
      code: "invalid_parameter",
    });
  });
});

describe("projects/bulk", () => {
  it("takes 1 to 20 comma-separated slugs or owner/repo names", () => {
    expect(parse(projectsBulkParams, { slugs: "a,acme/tool.kit" })).toEqual({
      ok: true,
      value: { slugs: ["a", "acme/tool.kit"] },
    });
    const twenty = Array.from({ length: 20 }, (_, i) => `p${i}`);
    expect(parse(projectsBulkParams, { slugs: twenty.join(",") })).toEqual({
      ok: true,
      value: { slugs: twenty },
    });
  });

  it.each([
    ["21 slugs", Array.from({ length: 21 }, (_, i) => `p${i}`).join(",")],
    ["an empty entry", "a,,b"],
    ["a trailing comma", "a,"],
    ["an empty value", ""],
    ["a duplicate", "a,b,a"],
    ["a path with two slashes", "a/b/c"],
  ])("rejects %s", (_label, slugs) => {
    expect(parse(projectsBulkParams, { slugs })).toMatchObject({ ok: false, code: "invalid_parameter" });
  });

  it("requires slugs", () => {
    expect(parse(projectsBulkParams, {})).toMatchObject({ ok: false, code: "missing_parameter" });
  });
});
