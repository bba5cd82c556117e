// GET /api/v1/velocity over a release of the simulated world: the commit leaderboard, its filters and pages,
// checked record by record against the warehouse the release was rendered from (plain SQL over ds_velocity and
// projects), and the parameters it refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { velocityRecordSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Expected {
  rank: number;
  domain_rank: number;
  full_name: string;
  name: string;
  slug: string;
  description: string | null;
  language: string | null;
  domain: string;
  subcategory: string | null;
  stack_layer: string | null;
  commits_30d: number;
  commits_4w: number | null;
  commits_90d: number;
  contributors: number | null;
  stars: number;
  last_commit_at: string | null;
  lifecycle_stage: string;
  quality_score: number;
  quality_tier: string;
}

let sim: SimApp;
let board: Expected[];
let tracked: number;

beforeAll(async () => {
  sim = await sharedSimApp();
  // the projects with commits in 30 days, by commits, then weekly counts, commits in 90 days, stars and full_name
  board = await sim.db.all<Expected>(
    `SELECT row_number() OVER w AS rank, row_number() OVER (PARTITION BY p.domain ORDER BY v.rank) AS domain_rank,
       p.full_name, p.name, p.slug, nullif(p.description, '') AS description, nullif(p.language, '') AS language,
       p.domain, nullif(p.subcategory, '') AS subcategory, p.stack_layer, p.commits_30d, v.commits_4w, p.commits_90d,
       p.contributors, p.stars, strftime(p.last_commit_at, '%Y-%m-%dT%H:%M:%SZ') AS last_commit_at, p.lifecycle_stage,
       p.quality_score, p.quality_tier
     FROM projects p JOIN ds_velocity v USING (full_name)
     WHERE p.commits_30d > 0
     WINDOW w AS (ORDER BY p.commits_30d DESC, v.commits_4w DESC NULLS LAST, p.commits_90d DESC, p.stars DESC, p.full_name)
     ORDER BY rank`,
  );
  const [row] = await sim.db.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM projects");
  tracked = row?.n ?? 0;
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/velocity", () => {
  it("lists the 20 most active projects by default, each record exactly as in the warehouse", async () => {
    expect(board.length).toBeGreaterThan(100);
    expect(board.length).toBeLessThan(tracked);
    const { status, body } = await sim.get("/api/v1/velocity");
    expect(status).toBe(200);
    expect(body.data).toEqual(board.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: 20,
      total: board.length,
      next_offset: 20,
      query: { limit: 20, offset: 0 },
    });
    for (const record of body.data) expect(velocityRecordSchema.safeParse(record).error).toBeUndefined();
  });

  it("pages through the whole board to an empty page past its end, ranks 1 to the last without gaps", async () => {
    const seen: Expected[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const { body } = await sim.get(`/api/v1/velocity?limit=50&offset=${offset}`);
      seen.push(...body.data);
      offset = body.meta.next_offset;
    }
    expect(seen).toEqual(board);
    expect(seen.map((r) => r.rank)).toEqual(board.map((_, i) => i + 1));
    const past = await sim.get(`/api/v1/velocity?offset=${board.length}`);
    expect(past.body).toMatchObject({ data: [], meta: { count: 0, total: board.length, next_offset: null } });
  });

  it("filters by domain and stack layer, keeping the rank on the whole board; domain_rank counts from 1", async () => {
    const top = board[0] as Expected;
    const inDomain = board.filter((r) => r.domain === top.domain);
    const byDomain = await sim.get(`/api/v1/velocity?domain=${top.domain}&limit=50`);
    expect(byDomain.body.data).toEqual(inDomain);
    expect(byDomain.body.data.map((r: Expected) => r.domain_rank)).toEqual(inDomain.map((_, i) => i + 1));
    expect(byDomain.body.meta.query).toEqual({ domain: top.domain, limit: 50, offset: 0 });

    const layer = top.stack_layer as string;
    const both = await sim.get(`/api/v1/velocity?domain=${top.domain}&stack_layer=${layer}`);
    expect(both.body.data).toEqual(inDomain.filter((r) => r.stack_layer === layer));
    const byLayer = await sim.get(`/api/v1/velocity?stack_layer=${layer}&limit=50`);
    expect(byLayer.body.meta.total).toBe(board.filter((r) => r.stack_layer === layer).length);

    // a project without commits in 30 days is left out even where its domain is asked for
    const [idle] = await sim.db.all<{ slug: string; domain: string }>(
      "SELECT slug, domain FROM projects WHERE commits_30d = 0 ORDER BY slug LIMIT 1",
    );
    const idleDomain = await sim.get(`/api/v1/velocity?domain=${idle?.domain}&limit=50`);
    expect(idleDomain.body.data).toEqual(board.filter((r) => r.domain === idle?.domain));
    expect(idleDomain.body.data.map((r: Expected) => r.slug)).not.toContain(idle?.slug);
  });

  it.each([
    ["limit=51", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["offset=-1", "invalid_parameter", "offset must be an integer of at least 0"],
    ["stack_layer=hardware", "invalid_parameter", "stack_layer must be one of:"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["window=30d", "invalid_parameter", 'Unknown parameter "window"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/velocity?${query}`, code, message);
  });
});
