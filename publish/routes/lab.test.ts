// GET /api/v1/labs/{slug}: the lab-detail collection rendered from the hand-made fixture (a derived lab and a curated
// one, field by field), then every lab of a simulated world's release looked up through the shim and compared with
// the warehouse by plain SQL; the 404 of an unknown slug, the refusals and the example the manifest records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../../core/storage.ts";
import { LIFECYCLE_STAGES, labDetailSchema, MAX_LAB_RELEASES } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { readManifest, readPointer } from "../layout.ts";
import { SHARDS } from "../route-spec.ts";
import { renderFixtureCollection, shardedRecord } from "../testing.ts";
import { LAB_DETAIL_COLLECTION } from "./lab.ts";

const ACME = {
  slug: "acme",
  name: "acme",
  kind: "github-owner",
  source: "owner",
  homepage: "https://github.com/acme",
  owners: ["acme"],
  project_count: 3,
  stars: 7000,
  avg_quality_score: 53.3,
  top_domain: "agents",
  top_project: "acme/agentkit",
  domains: [
    { domain: "agents", projects: 1 },
    { domain: "rag", projects: 1 },
    { domain: "ai-evals", projects: 1 },
  ],
  projects: [
    {
      full_name: "acme/agentkit",
      slug: "acme--agentkit",
      domain: "agents",
      stack_layer: "orchestration",
      stars: 5000,
      stars_7d_delta: 600,
      quality_score: 55,
      quality_tier: "emerging",
      lifecycle_stage: "growing",
      latest_release_tag: null,
      latest_release_at: null,
    },
    {
      full_name: "acme/ragbox",
      slug: "acme--ragbox",
      domain: "rag",
      stack_layer: "orchestration",
      stars: 1200,
      stars_7d_delta: 300,
      quality_score: 35,
      quality_tier: "experimental",
      lifecycle_stage: "launching",
      latest_release_tag: null,
      latest_release_at: null,
    },
    {
      full_name: "acme/evalsuite",
      slug: "acme--evalsuite",
      domain: "ai-evals",
      stack_layer: "eval",
      stars: 800,
      stars_7d_delta: 5,
      quality_score: 70,
      quality_tier: "established",
      lifecycle_stage: "established",
      latest_release_tag: null,
      latest_release_at: null,
    },
  ],
  releases: {
    observed: 1,
    latest: [
      {
        full_name: "acme/agentkit",
        slug: "acme--agentkit",
        source: "npm",
        package: "agentkit",
        version: "1.2.0",
        released_at: "2026-10-31T09:00:00Z",
        first_seen: "2026-11-01",
        prerelease: false,
        url: "https://www.npmjs.com/package/agentkit/v/1.2.0",
      },
    ],
  },
  data_date: "2026-11-01",
};

describe("the lab-detail collection", () => {
  let files: Map<string, Buffer>;

  beforeAll(async () => {
    files = await renderFixtureCollection(LAB_DETAIL_COLLECTION, "2026-11-01");
  });

  // biome-ignore lint/suspicious/noExplicitAny: the record is compared field by field
  const detail = (slug: string) => shardedRecord(files, "lab-detail", slug) as any;

  it("writes the 256 shards, each lab in its slug's shard, and renders a derived lab field by field", () => {
    expect(files.size).toBe(SHARDS.length * 2);
    expect(detail("acme")).toEqual(ACME);
  });

  it("renders a curated lab with its homepage, and its releases newest first", () => {
    expect(detail("ollama")).toMatchObject({
      slug: "ollama",
      name: "Ollama",
      kind: "company",
      source: "curated",
      homepage: "https://ollama.com",
      project_count: 1,
      top_project: "ollama/ollama",
      domains: [{ domain: "llm-inference", projects: 1 }],
      releases: {
        observed: 2,
        latest: [
          { source: "pypi", version: "0.4.0", url: "https://pypi.org/project/ollama/0.4.0/" },
          {
            source: "github",
            version: "v0.4.0",
            url: "https://github.com/ollama/ollama/releases/tag/v0.4.0",
          },
        ],
      },
    });
  });
});

interface LabRow {
  slug: string;
  name: string;
  project_count: number;
  stars: number;
  avg_quality_score: number;
  top_domain: string;
  top_project: string;
  projects: string[];
  observed: number;
  latest: string[];
}

describe("GET /api/v1/labs/{slug} on a simulated world", () => {
  let sim: SimApp;
  let labs: LabRow[];

  beforeAll(async () => {
    sim = await sharedSimApp();
    // each lab's projects by stars, and the newest releases of its projects, from projects and releases
    labs = await sim.db.all<LabRow>(
      `WITH members AS (SELECT l.slug AS lab, p.* FROM labs l JOIN projects p ON list_contains(l.owners, lower(p.owner))),
       shipped AS (SELECT m.lab, list(r.source || ' ' || r.version ORDER BY coalesce(r.released_at, r.first_seen) DESC,
           m.full_name, r.source, r.version) AS latest, count(*)::INTEGER AS observed
         FROM members m JOIN releases r USING (node_id) GROUP BY m.lab)
       SELECT l.slug, l.name, l.projects::INTEGER AS project_count, l.stars::INTEGER AS stars, l.avg_quality_score,
         l.top_domain, l.top_project, (SELECT list(full_name ORDER BY stars DESC, full_name) FROM members m WHERE m.lab = l.slug) AS projects,
         coalesce(s.observed, 0) AS observed, coalesce(s.latest, []) AS latest
       FROM labs l LEFT JOIN shipped s ON s.lab = l.slug ORDER BY l.slug`,
    );
  }, 600_000);
  afterAll(() => sim?.close());

  it("answers every lab by its slug with a detail matching the warehouse", async () => {
    expect(labs.length).toBeGreaterThan(10);
    for (const lab of labs) {
      const { status, body } = await sim.get(`/api/v1/labs/${lab.slug}`);
      expect(status, lab.slug).toBe(200);
      expect(labDetailSchema.safeParse(body.data).error).toBeUndefined();
      const d = body.data;
      expect([
        d.slug,
        d.name,
        d.project_count,
        d.stars,
        d.avg_quality_score,
        d.top_domain,
        d.top_project,
      ]).toEqual([
        lab.slug,
        lab.name,
        lab.project_count,
        lab.stars,
        lab.avg_quality_score,
        lab.top_domain,
        lab.top_project,
      ]);
      expect(d.projects.map((p: { full_name: string }) => p.full_name)).toEqual(lab.projects);
      expect(d.releases.observed).toBe(lab.observed);
      expect(
        d.releases.latest.map((r: { source: string; version: string }) => `${r.source} ${r.version}`),
      ).toEqual(lab.latest.slice(0, MAX_LAB_RELEASES));
      expect(d.data_date).toBe(sim.runDate);
      expect(body.meta).toMatchObject({ count: 1, query: { slug: lab.slug } });
    }
    expect(labs.some((l) => l.observed > 0)).toBe(true);
  });

  it("counts each lab's projects by domain, and shows every project's stage", async () => {
    const lab = labs.reduce((a, b) => (b.project_count > a.project_count ? b : a));
    const { body } = await sim.get(`/api/v1/labs/${lab.slug}`);
    const byDomain = await sim.db.all<{ domain: string; projects: number }>(
      `SELECT domain, count(*)::INTEGER AS projects FROM ds_lab_projects WHERE lab_slug = $1
       GROUP BY domain ORDER BY projects DESC, sum(stars) DESC, domain`,
      [lab.slug],
    );
    expect(body.data.domains).toEqual(byDomain);
    expect(body.data.domains[0].domain).toBe(lab.top_domain);
    for (const p of body.data.projects) expect(LIFECYCLE_STAGES).toContain(p.lifecycle_stage);
  });

  it("matches the slug in any case", async () => {
    const lab = labs[0] as LabRow;
    const upper = await sim.get(`/api/v1/labs/${lab.slug.toUpperCase()}`);
    expect([upper.status, upper.body.data.slug]).toEqual([200, lab.slug]);
  });

  it("documents a lab of the release as its example", async () => {
    const storage = createLocalStorage(sim.stateDir);
    const pointer = await readPointer(storage);
    const manifest = pointer && (await readManifest(storage, pointer.release_id));
    const example = manifest?.examples.lab?.slug as string;
    expect(labs.map((l) => l.slug)).toContain(example);
    expect((await sim.get(`/api/v1/labs/${example}`)).status).toBe(200);
  });

  it("answers 404 not_found for an unknown lab, saying where lab slugs are found", async () => {
    const { status, body } = await sim.get("/api/v1/labs/no-such-lab");
    expect(status).toBe(404);
    expect(body.detail.error).toMatchObject({
      code: "not_found",
      message:
        'No lab "no-such-lab"; lab slugs are in the public table labs (POST /api/v1/query with SELECT slug, name FROM labs), and a project\'s owner is a lab only with a curated entry or enough tracked projects.',
    });
  });

  it.each([
    ["/api/v1/labs/-acme", "invalid_parameter", "slug must be a slug of letters, digits"],
    ["/api/v1/labs/acme?limit=1", "invalid_parameter", 'Unknown parameter "limit"'],
  ])("refuses %s with 422 %s", async (url, code, message) => {
    await sim.expectRefused(url, code, message);
  });
});
