// The project detail: metrics, downloads, score explanation, momentum, hype ratio and releases.
import { describe, expect, it } from "vitest";
import { type ProjectDetail, projectDetailSchema } from "./project-detail.ts";

const component = (points: number, inputs: ProjectDetail["score_explanation"]["maintenance"]["inputs"]) => ({
  points,
  max_points: 25 as const,
  inputs,
});

const release = (n: number) => ({
  tag: `v1.${n}.0`,
  name: null,
  published_at: "2025-03-01T12:00:00Z",
  prerelease: false,
  url: `https://github.com/acme/toolhub-mcp/releases/tag/v1.${n}.0`,
});

const detail: ProjectDetail = {
  slug: "acme--toolhub-mcp",
  full_name: "acme/toolhub-mcp",
  owner: "acme",
  name: "toolhub-mcp",
  description: "A registry of MCP tools",
  url: "https://github.com/acme/toolhub-mcp",
  homepage: null,
  language: "Python",
  license: "Apache-2.0",
  topics: ["mcp", "llm"],
  domain: "mcp",
  subcategory: "registries",
  stack_layer: "orchestration",
  archived: false,
  created_at: "2024-02-10T08:00:00Z",
  pushed_at: "2025-03-20T17:45:00+00:00",
  metrics: { stars: 4210, forks: 311, open_issues: 42, watchers: 60, contributors: null, commits_30d: 57 },
  downloads: {
    monthly_total: 52_000,
    pypi: { package: "toolhub-mcp", monthly: 50_000 },
    npm: { package: "toolhub", monthly: 2_000 },
    docker: null,
  },
  quality_score: 71,
  quality_tier: "established",
  score_explanation: {
    maintenance: component(20, [
      { name: "commits_90d", value: 180, points: 12.4 },
      { name: "issue_response_days", value: null, points: 7.6 },
    ]),
    adoption: component(15, [{ name: "downloads_monthly", value: 52_000, points: 15 }]),
    maturity: component(18, [{ name: "has_license", value: true, points: 18 }]),
    community: component(18, [{ name: "license", value: "Apache-2.0", points: 18 }]),
  },
  lifecycle_stage: "growing",
  momentum: {
    stars_7d_delta: 812,
    stars_30d_delta: 1904,
    growth_pct_30d: 82.6,
    downloads_change_pct_30d: null,
  },
  hype_ratio: 0.081,
  releases: { count: 14, latest: [release(3), release(2)] },
  data_date: "2025-03-21",
};

describe("project detail", () => {
  it("accepts a full detail", () => {
    expect(projectDetailSchema.parse(detail)).toEqual(detail);
  });

  it("rejects components that do not add up to the score", () => {
    const bad = {
      ...detail,
      score_explanation: { ...detail.score_explanation, adoption: component(14, []) },
    };
    expect(projectDetailSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      "quality_score 71 differs from the sum of its components (70)",
    ]);
  });

  it.each([
    ["owner/name not matching full_name", { owner: "other" }],
    [
      "more than 10 releases",
      { releases: { count: 11, latest: Array.from({ length: 11 }, (_, i) => release(i)) } },
    ],
    [
      "a release date without offset",
      { releases: { count: 1, latest: [{ ...release(1), published_at: "2025-03-01T12:00:00" }] } },
    ],
    ["a negative hype ratio", { hype_ratio: -1 }],
    ["a data date with a time", { data_date: "2025-03-21T00:00:00Z" }],
    [
      "max_points other than 25",
      {
        score_explanation: {
          ...detail.score_explanation,
          maturity: { points: 18, max_points: 30, inputs: [] },
        },
      },
    ],
    ["a tier not matching the score", { quality_tier: "verified" }],
  ])("rejects %s", (_label, change) => {
    expect(projectDetailSchema.safeParse({ ...detail, ...change }).success).toBe(false);
  });
});
