// The project detail: metrics, downloads, score explanation, momentum, hype ratio and releases.
import { describe, expect, it } from "vitest";
import { type ProjectDetail, projectDetailSchema } from "./project-detail.ts";

const component = (points: number, inputs: ProjectDetail["score_explanation"]["maintenance"]["inputs"]) => ({
  points,
  max_points: 25 as const,
  inputs,
});

const release = (n: number) => ({
  source: "github" as const,
  package: null,
  version: `v1.${n}.0`,
  released_at: "2025-03-01T12:00:00Z",
  first_seen: "2025-03-02",
  prerelease: false,
  url: `https://github.com/acme/toolhub-mcp/releases/tag/v1.${n}.0`,
});

const series = (value: number | null) => Array.from({ length: 90 }, (_, i) => (i < 80 ? null : value));

const detail: ProjectDetail = {
  slug: "acme--toolhub-mcp",
  full_name: "acme/toolhub-mcp",
  owner: "acme",
  name: "toolhub-mcp",
  description: "A registry of MCP tools",
  stars: 4210,
  forks: 311,
  language: "Python",
  license: "Apache-2.0",
  subcategory: "registries",
  pypi_package: "toolhub-mcp",
  downloads_monthly: 52_000,
  quality_score: 71,
  quality_tier: "established",
  maintenance_score: 20,
  adoption_score: 15,
  maturity_score: 18,
  community_score: 18,
  domain: "mcp",
  stack_layer: "orchestration",
  classification_rule: "topics: mcp-server",
  topics: ["mcp", "llm"],
  archived: false,
  fork: false,
  created_at: "2024-02-10T08:00:00Z",
  pushed_at: "2025-03-20T17:45:00+00:00",
  last_commit_at: null,
  metrics: {
    watchers: 60,
    open_issues: 42,
    closed_issues: 100,
    contributors: null,
    commits_30d: 57,
    commits_90d: 180,
    commits_52w: null,
    issue_response_median_hours: 12.5,
    dependents: 3,
    hn_posts_90d: 1,
    hn_points_90d: 120,
    papers: 0,
  },
  downloads: {
    monthly_total: 52_000,
    pypi: { package: "toolhub-mcp", monthly: 50_000 },
    npm: { package: "toolhub", monthly: 2_000 },
    huggingface: null,
    docker: null,
  },
  packages: [
    {
      registry: "pypi",
      package: "toolhub-mcp",
      version: "1.3.0",
      downloads_monthly: 50_000,
      pulls_total: null,
      dependents: 3,
      latest_release_at: "2025-03-01T12:00:00Z",
      as_of: "2025-03-21",
      stale: false,
    },
  ],
  score_explanation: {
    maintenance: component(20, [
      { name: "commits_90d", value: 180, points: 12, fallback: false },
      { name: "issue_response_median_hours", value: null, points: 8, fallback: true },
    ]),
    adoption: component(15, [{ name: "downloads_monthly", value: 52_000, points: 15, fallback: false }]),
    maturity: component(18, [{ name: "has_license", value: true, points: 18, fallback: false }]),
    community: component(18, [{ name: "stars", value: 4210, points: 18, fallback: false }]),
    archived: false,
    finished_project: false,
    history_share: 1,
    fallbacks: ["issue_response_median_hours"],
    estimated: [],
    flags: [],
  },
  lifecycle_stage: "growing",
  lifecycle_since: "2025-02-01",
  first_seen: "2024-11-01",
  momentum: {
    score: 0.5,
    stars_7d_delta: 812,
    stars_30d_delta: 1904,
    growth_7d_pct: 23.9,
    growth_30d_pct: 82.6,
    downloads_change_pct_30d: null,
  },
  hype_ratio: 0.481,
  alternatives: [
    {
      full_name: "acme/rival",
      slug: "acme--rival",
      quality_score: 70,
      quality_tier: "established",
      stars: 900,
      match: "same_subcategory",
    },
  ],
  releases: { count: 14, observed: 20, latest: [release(3), release(2)] },
  history: { from: "2024-12-22", to: "2025-03-21", stars: series(4210), downloads_monthly: series(52_000) },
  // tracked since 2025-03-11 (night 80 of the 90): its only month
  history_monthly: { from: "2025-03", to: "2025-03", stars: [4210], downloads_monthly: [52_000] },
  links: {
    repository: "https://github.com/acme/toolhub-mcp",
    homepage: "toolhub.example.org",
    pypi: ["https://pypi.org/project/toolhub-mcp/"],
    npm: ["https://www.npmjs.com/package/toolhub"],
    docker: [],
    huggingface: [],
    papers: [],
  },
  freshness: {
    stale: false,
    carried: false,
    counts_as_of: "2025-03-18",
    sources: [
      { source: "github", as_of: "2025-03-21", fresh: true },
      { source: "github_rest", as_of: null, fresh: true },
    ],
  },
  data_date: "2025-03-21",
  badge_markdown:
    "[![AI quality](http://localhost:8787/badges/acme/toolhub-mcp.svg)](http://localhost:8787/p/acme/toolhub-mcp)",
};

describe("project detail", () => {
  it("accepts a full detail", () => {
    expect(projectDetailSchema.parse(detail)).toEqual(detail);
  });

  it("accepts unknown downloads as null, at the top, by registry and per package", () => {
    const unknown = {
      ...detail,
      downloads_monthly: null,
      downloads: {
        ...detail.downloads,
        monthly_total: null,
        pypi: detail.downloads.pypi && { ...detail.downloads.pypi, monthly: null },
      },
      packages: detail.packages.map((p) => ({ ...p, downloads_monthly: null })),
    };
    expect(projectDetailSchema.parse(unknown)).toEqual(unknown);
  });

  it("rejects explained components that do not add up to the score", () => {
    const bad = {
      ...detail,
      score_explanation: { ...detail.score_explanation, adoption: component(14, []) },
    };
    expect(projectDetailSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      "quality_score 71 differs from the sum of its components (70)",
    ]);
  });

  it("rejects a history without one value per night", () => {
    const bad = { ...detail, history: { ...detail.history, stars: series(1).slice(1) } };
    expect(projectDetailSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      "history.stars must hold one value per night from 2024-12-22 to 2025-03-21",
    ]);
  });

  it("rejects a monthly history without one value per month, across a year's end", () => {
    const years = {
      from: "2023-11",
      to: "2025-03",
      stars: Array(17).fill(null),
      downloads_monthly: Array(17).fill(0),
    };
    expect(projectDetailSchema.safeParse({ ...detail, history_monthly: years }).success).toBe(true);
    const bad = { ...detail, history_monthly: { ...years, downloads_monthly: Array(16).fill(0) } };
    expect(projectDetailSchema.safeParse(bad).error?.issues.map((i) => i.message)).toEqual([
      "history_monthly.downloads_monthly must hold one value per month from 2023-11 to 2025-03",
    ]);
    expect(
      projectDetailSchema.safeParse({ ...detail, history_monthly: { ...years, from: "2023-13" } }).success,
    ).toBe(false);
  });

  it.each([
    ["owner/name not matching full_name", { owner: "other" }],
    [
      "more than 10 releases",
      { releases: { count: 11, observed: 11, latest: Array.from({ length: 11 }, (_, i) => release(i)) } },
    ],
    [
      "a release date without offset",
      {
        releases: { count: 1, observed: 1, latest: [{ ...release(1), released_at: "2025-03-01T12:00:00" }] },
      },
    ],
    ["a negative hype ratio", { hype_ratio: -1 }],
    ["a hype ratio above 1", { hype_ratio: 1.5 }],
    ["a negative star delta", { momentum: { ...detail.momentum, stars_7d_delta: -1 } }],
    ["a component score not matching the score", { community_score: 17 }],
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
    [
      "an input scored by its fallback left out of fallbacks",
      { score_explanation: { ...detail.score_explanation, fallbacks: [] } },
    ],
    [
      "an input marked fallback that has a value",
      {
        score_explanation: {
          ...detail.score_explanation,
          maintenance: component(20, [
            { name: "commits_90d", value: 180, points: 12, fallback: false },
            { name: "issue_response_median_hours", value: 52, points: 8, fallback: true },
          ]),
        },
      },
    ],
  ])("rejects %s", (_label, change) => {
    expect(projectDetailSchema.safeParse({ ...detail, ...change }).success).toBe(false);
  });
});
