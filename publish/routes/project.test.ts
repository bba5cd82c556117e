// GET /api/v1/projects/{slug} and /api/v1/projects/{owner}/{repo}: the detail collection rendered from the hand-made
// fixture (one record checked field by field, history gaps included), then every project of a simulated world's
// release looked up through the shim and compared with the warehouse by plain SQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDetailSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { SHARDS } from "../route-spec.ts";
import { renderFixtureCollection, shardedRecord } from "../testing.ts";
import { PROJECT_DETAIL_COLLECTION } from "./project.ts";

/** 90 nights, null but for the given night → value pairs (night 0 is run_date - 89). */
const nights = (values: Record<number, number>) => Array.from({ length: 90 }, (_, i) => values[i] ?? null);

const OLLAMA = {
  slug: "ollama--ollama",
  full_name: "ollama/ollama",
  owner: "ollama",
  name: "ollama",
  description: "ollama does things",
  stars: 150000,
  forks: 15000,
  language: "Python",
  license: "MIT",
  subcategory: "local-runners",
  pypi_package: "ollama",
  downloads_monthly: 2000000,
  quality_score: 92,
  quality_tier: "verified",
  maintenance_score: 20,
  adoption_score: 25,
  maturity_score: 24,
  community_score: 23,
  domain: "llm-inference",
  stack_layer: "inference",
  classification_rule: "topics: llm-inference",
  topics: ["llm-inference"],
  archived: false,
  fork: false,
  created_at: "2024-01-02T03:04:05Z",
  pushed_at: "2026-10-31T12:00:00Z",
  last_commit_at: "2026-10-31T11:00:00Z",
  metrics: {
    watchers: 1500,
    open_issues: 10,
    closed_issues: 20,
    contributors: 500,
    commits_30d: 210,
    commits_90d: 630,
    commits_52w: 2000,
    issue_response_median_hours: 5.3,
    dependents: 120,
    hn_posts_90d: 40,
    hn_points_90d: 900,
    papers: 3,
  },
  downloads: {
    monthly_total: 2000000,
    pypi: { package: "ollama", monthly: 1500000 },
    npm: { package: "ollama", monthly: 500000 },
    huggingface: null,
    docker: { image: "ollama/ollama", pulls_total: 90000000 },
  },
  packages: [
    {
      registry: "docker",
      package: "ollama/ollama",
      version: null,
      downloads_monthly: 0,
      pulls_total: 90000000,
      dependents: 0,
      latest_release_at: null,
      as_of: "2026-11-01",
      stale: false,
    },
    {
      registry: "npm",
      package: "ollama",
      version: "0.4.0",
      downloads_monthly: 500000,
      pulls_total: null,
      dependents: 80,
      latest_release_at: null,
      as_of: "2026-11-01",
      stale: false,
    },
    {
      registry: "pypi",
      package: "ollama",
      version: "0.4.0",
      downloads_monthly: 1500000,
      pulls_total: null,
      dependents: 120,
      latest_release_at: null,
      as_of: "2026-11-01",
      stale: false,
    },
  ],
  score_explanation: {
    maintenance: {
      points: 20,
      max_points: 25,
      inputs: [
        { name: "commits_90d", value: 630, points: 20, fallback: false },
        { name: "issue_response_median_hours", value: 5.25, points: 0, fallback: false },
      ],
    },
    adoption: {
      points: 25,
      max_points: 25,
      inputs: [{ name: "downloads_monthly", value: 2000000, points: 25, fallback: false }],
    },
    maturity: {
      points: 24,
      max_points: 25,
      inputs: [{ name: "has_license", value: true, points: 24, fallback: false }],
    },
    community: {
      points: 23,
      max_points: 25,
      inputs: [{ name: "stars", value: 150000, points: 23, fallback: false }],
    },
    archived: false,
    finished_project: false,
    history_share: 1,
    fallbacks: [],
    estimated: [],
    flags: [],
  },
  lifecycle_stage: "established",
  lifecycle_since: "2026-08-01",
  first_seen: "2026-08-01",
  momentum: {
    score: 0.8,
    stars_7d_delta: 900,
    stars_30d_delta: 4000,
    growth_7d_pct: 0.6,
    growth_30d_pct: 2.74,
    downloads_change_pct_30d: null,
  },
  hype_ratio: 0.45,
  alternatives: [],
  releases: {
    count: 3,
    observed: 2,
    latest: [
      {
        source: "pypi",
        package: "ollama",
        version: "0.4.0",
        released_at: "2026-10-29T08:00:00Z",
        first_seen: "2026-10-30",
        prerelease: false,
        url: "https://pypi.org/project/ollama/0.4.0/",
      },
      {
        source: "github",
        package: null,
        version: "v0.4.0",
        released_at: "2026-10-28T10:00:00Z",
        first_seen: "2026-10-29",
        prerelease: false,
        url: "https://github.com/ollama/ollama/releases/tag/v0.4.0",
      },
    ],
  },
  // snapshots on 2026-09-20, 10-15, 10-25 and 11-01: nights 47, 72, 82 and 89, the others unknown; the registries
  // were first read on 10-25, so the downloads of nights 47 and 72 are unknown too
  history: {
    from: "2026-08-04",
    to: "2026-11-01",
    stars: nights({ 47: 140000, 72: 146000, 82: 149100, 89: 150000 }),
    downloads_monthly: nights({ 82: 2000000, 89: 2000000 }),
  },
  // each month's last snapshot: 09-20, 10-25 and 11-01, September's downloads unknown as that night's
  history_monthly: {
    from: "2026-09",
    to: "2026-11",
    stars: [140000, 149100, 150000],
    downloads_monthly: [null, 2000000, 2000000],
  },
  links: {
    repository: "https://github.com/ollama/ollama",
    homepage: "https://ollama.com",
    pypi: ["https://pypi.org/project/ollama/"],
    npm: ["https://www.npmjs.com/package/ollama"],
    docker: ["https://hub.docker.com/r/ollama/ollama"],
    huggingface: [],
    papers: [],
  },
  freshness: {
    stale: false,
    carried: false,
    counts_as_of: "2026-10-29",
    sources: [
      { source: "github", as_of: "2026-11-01", fresh: true },
      { source: "github_rest", as_of: "2026-10-31", fresh: true },
      { source: "pypi", as_of: "2026-11-01", fresh: true },
      { source: "npm", as_of: "2026-11-01", fresh: false },
      { source: "dockerhub", as_of: "2026-11-01", fresh: true },
    ],
  },
  data_date: "2026-11-01",
  badge_markdown:
    "[![AI quality](http://localhost:8787/badges/ollama/ollama.svg)](http://localhost:8787/p/ollama/ollama)",
};

describe("the project-detail collection", () => {
  let files: Map<string, Buffer>;

  beforeAll(async () => {
    files = await renderFixtureCollection(PROJECT_DETAIL_COLLECTION, "2026-11-01");
  });

  /** The record of a slug, found by its key in its shard. */
  // biome-ignore lint/suspicious/noExplicitAny: the record is compared field by field
  const detail = (slug: string) => shardedRecord(files, "project-detail", slug) as any;

  it("writes a records file and an index for each of the 256 shards, every project in its slug's shard", () => {
    expect(files.size).toBe(SHARDS.length * 2);
    const slugs = ["ollama--ollama", "langchain-ai--langchain", "acme--agentkit", "acme--ragbox"];
    for (const slug of [...slugs, "oldlab--vecstore", "acme--evalsuite"])
      expect(detail(slug)?.slug).toBe(slug);
  });

  it("renders a project's detail field by field: metrics, packages, explanation, releases, history with gaps", () => {
    expect(detail("ollama--ollama")).toEqual(OLLAMA);
  });

  it("links papers, lists a single night's history, and omits the registries a project has no package on", () => {
    const agentkit = detail("acme--agentkit");
    expect(agentkit.links.papers).toEqual([
      {
        arxiv_id: "2401.00001",
        title: "Agents all the way down",
        url: "https://arxiv.org/abs/2401.00001",
        published_at: "2024-01-01T00:00:00Z",
      },
    ]);
    expect(agentkit.history.stars).toEqual(nights({ 89: 5000 }));
    // a night after the registries' first: no package downloads is 0, not unknown
    expect(agentkit.history.downloads_monthly).toEqual(nights({ 89: 0 }));
    expect(agentkit.freshness.sources).toEqual([
      { source: "github", as_of: "2026-11-01", fresh: true },
      { source: "github_rest", as_of: null, fresh: true },
      { source: "npm", as_of: "2026-11-01", fresh: false },
    ]);
    const ragbox = detail("acme--ragbox");
    expect([ragbox.packages, ragbox.releases, ragbox.downloads.pypi]).toEqual([
      [],
      { count: 3, observed: 0, latest: [] },
      null,
    ]);
    expect(ragbox.history.stars).toEqual(nights({}));
    // no snapshot at all: the run date's month, unknown
    expect([agentkit.history_monthly, ragbox.history_monthly]).toEqual([
      { from: "2026-11", to: "2026-11", stars: [5000], downloads_monthly: [0] },
      { from: "2026-11", to: "2026-11", stars: [null], downloads_monthly: [null] },
    ]);
  });

  it("lists the alternatives of the warehouse's alternatives table, and none where it has no row", () => {
    expect(detail("acme--agentkit").alternatives).toEqual([
      {
        full_name: "langchain-ai/langchain",
        slug: "langchain-ai--langchain",
        quality_score: 88,
        quality_tier: "verified",
        stars: 110000,
        match: "same_subcategory",
      },
    ]);
    expect(detail("langchain-ai--langchain").alternatives.map((a: { slug: string }) => a.slug)).toEqual([
      "acme--agentkit",
    ]);
    expect(detail("acme--ragbox").alternatives).toEqual([]);
  });
});

interface Row {
  slug: string;
  full_name: string;
  stars: number;
  quality_score: number;
  domain: string;
  lifecycle_stage: string;
  explanation: string;
  stars_history: (number | null)[];
  downloads_history: (number | null)[];
  releases: string[];
  alternatives: string;
}

describe("GET /api/v1/projects/{slug} on a simulated world", () => {
  let sim: SimApp;
  let rows: Row[];

  beforeAll(async () => {
    sim = await sharedSimApp();
    // the history night by night and the 10 newest releases, by plain SQL (ordered aggregates are fine at this size);
    // downloads unknown before the first night any project counted some (the registries' first)
    rows = await sim.db.all<Row>(
      `WITH registries AS (SELECT min(date) AS first FROM snapshots WHERE downloads_monthly > 0),
       nights AS (SELECT p.node_id, n.night, s.stars,
           CASE WHEN s.date >= (SELECT first FROM registries) THEN s.downloads_monthly END AS downloads_monthly
         FROM projects p CROSS JOIN range(90) AS n(night)
         LEFT JOIN snapshots s ON s.node_id = p.node_id AND s.date = DATE '${sim.runDate}' - 89 + n.night::INTEGER),
       history AS (SELECT node_id, list(stars ORDER BY night) AS stars_history,
         list(downloads_monthly ORDER BY night) AS downloads_history FROM nights GROUP BY node_id),
       latest AS (SELECT node_id, list(source || ' ' || version ORDER BY coalesce(released_at, first_seen) DESC, source,
         version)[1:10] AS releases FROM releases GROUP BY node_id)
       SELECT p.slug, p.full_name, p.stars, p.quality_score, p.domain, p.lifecycle_stage, e.explanation::VARCHAR AS explanation,
         h.stars_history, h.downloads_history, coalesce(l.releases, []) AS releases,
         to_json(coalesce(a.alternatives, []))::VARCHAR AS alternatives
       FROM projects p JOIN score_explanations e USING (node_id) JOIN history h USING (node_id)
       LEFT JOIN latest l USING (node_id) LEFT JOIN (SELECT node_id, list({full_name: full_name, slug: slug, quality_score: quality_score,
         quality_tier: quality_tier, stars: stars, match: match} ORDER BY position) AS alternatives
         FROM alternatives GROUP BY node_id) a USING (node_id) ORDER BY p.slug`,
    );
  }, 600_000);
  afterAll(() => sim?.close());

  it("answers every project by its slug with a detail matching the warehouse", async () => {
    expect(rows.length).toBeGreaterThan(200);
    // most projects of the simulated world have an alternative
    expect(rows.filter((r) => r.alternatives !== "[]").length).toBeGreaterThan(rows.length / 2);
    for (const row of rows) {
      const { status, body } = await sim.get(`/api/v1/projects/${row.slug}`);
      expect(status, row.slug).toBe(200);
      expect(projectDetailSchema.safeParse(body.data).error).toBeUndefined();
      const d = body.data;
      expect([d.full_name, d.stars, d.quality_score, d.domain, d.lifecycle_stage]).toEqual([
        row.full_name,
        row.stars,
        row.quality_score,
        row.domain,
        row.lifecycle_stage,
      ]);
      expect(d.score_explanation).toEqual(JSON.parse(row.explanation));
      expect(d.history.stars).toEqual(row.stars_history);
      expect(d.history.downloads_monthly).toEqual(row.downloads_history);
      expect(
        d.releases.latest.map((r: { source: string; version: string }) => `${r.source} ${r.version}`),
      ).toEqual(row.releases);
      expect(d.alternatives).toEqual(JSON.parse(row.alternatives));
      expect(d.data_date).toBe(sim.runDate);
      expect(body.meta).toMatchObject({ count: 1, query: { slug: row.slug } });
    }
  });

  it("resolves owner/repo in one segment or two, in any case, to the same detail", async () => {
    const row = rows.find((r) => /[A-Z]/.test(r.full_name)) ?? (rows[0] as Row);
    const [owner, repo] = row.full_name.split("/") as [string, string];
    const expected = (await sim.get(`/api/v1/projects/${row.slug}`)).body.data;
    for (const url of [
      `/api/v1/projects/${row.slug.toUpperCase()}`,
      `/api/v1/projects/${encodeURIComponent(row.full_name)}`,
      `/api/v1/projects/${encodeURIComponent(row.full_name.toLowerCase())}`,
      `/api/v1/projects/${owner}/${repo}`,
      `/api/v1/projects/${owner.toUpperCase()}/${repo.toLowerCase()}`,
    ]) {
      const { status, body } = await sim.get(url);
      expect([url, status, body.data]).toEqual([url, 200, expected]);
    }
  });

  it("answers 404 not_found for an untracked project, pointing to the search", async () => {
    // a GitHub owner has up to 39 characters and a repository up to 100, so a slug may be longer than 100
    const long = `${"o".repeat(39)}--${"r".repeat(100)}`;
    for (const url of [
      "/api/v1/projects/nobody--nothing",
      "/api/v1/projects/nobody/nothing",
      `/api/v1/projects/${long}`,
    ]) {
      const { status, body } = await sim.get(url);
      expect(status).toBe(404);
      expect(body.detail.error.code).toBe("not_found");
      expect(body.detail.error.message).toContain("/api/v1/projects?q=");
    }
  });

  it("refuses a malformed slug and query parameters with 422 invalid_parameter", async () => {
    for (const url of [
      `/api/v1/projects/${encodeURIComponent("bad slug")}`,
      `/api/v1/projects/${"a".repeat(201)}`,
      "/api/v1/projects/owner/bad%20repo",
      `/api/v1/projects/${rows[0]?.slug}?limit=5`,
    ]) {
      const { status, body } = await sim.get(url);
      expect([url, status, body.detail.error.code]).toEqual([url, 422, "invalid_parameter"]);
    }
  });
});
