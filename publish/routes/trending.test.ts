// GET /api/v1/trending over a release of the simulated world: each window's leaderboard, its filters and pages,
// checked record by record against the warehouse the release was rendered from (plain SQL over projects).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trendingRecordSchema } from "../../schemas/index.ts";
import { SUBCATEGORIES_BY_DOMAIN } from "../../schemas/taxonomy.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Expected {
  rank: number;
  full_name: string;
  name: string;
  slug: string;
  description: string | null;
  language: string | null;
  domain: string;
  subcategory: string | null;
  stack_layer: string | null;
  stars: number;
  stars_7d_delta: number | null;
  stars_30d_delta: number | null;
  growth_pct: number;
  lifecycle_stage: string;
  quality_score: number;
  quality_tier: string;
}

let sim: SimApp;
const boards: Record<string, Expected[]> = {};

/** A window's whole board, straight from projects: positive gains only, in the documented order. */
async function board(window: "7d" | "30d"): Promise<Expected[]> {
  const delta = window === "7d" ? "stars_7d_delta" : "stars_30d_delta";
  const growth = window === "7d" ? "growth_7d_pct" : "growth_30d_pct";
  const rows = await sim.db.all<Omit<Expected, "rank">>(
    `SELECT full_name, name, slug, nullif(description, '') AS description, nullif(language, '') AS language, domain,
       nullif(subcategory, '') AS subcategory, stack_layer, stars, stars_7d_delta, stars_30d_delta,
       ${growth} AS growth_pct, lifecycle_stage, quality_score, quality_tier
     FROM projects WHERE ${delta} > 0 ORDER BY ${delta} DESC, stars DESC, full_name`,
  );
  return rows.map((row, i) => ({ rank: i + 1, ...row }));
}

beforeAll(async () => {
  sim = await sharedSimApp();
  boards["7d"] = await board("7d");
  boards["30d"] = await board("30d");
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/trending", () => {
  it("lists the 7-day board by default: the first 20 gainers, each record exactly as in the warehouse", async () => {
    const expected = boards["7d"] as Expected[];
    expect(expected.length).toBeGreaterThan(20);
    const { status, body } = await sim.get("/api/v1/trending");
    expect(status).toBe(200);
    expect(body.data).toEqual(expected.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: 20,
      total: expected.length,
      next_offset: 20,
      query: { window: "7d", limit: 20, offset: 0 },
    });
    for (const record of body.data) expect(trendingRecordSchema.safeParse(record).success).toBe(true);
  });

  it("pages through the 30-day board to an empty page past its end", async () => {
    const expected = boards["30d"] as Expected[];
    const first = await sim.get("/api/v1/trending?window=30d&limit=5");
    expect(first.body.data).toEqual(expected.slice(0, 5));
    const second = await sim.get("/api/v1/trending?window=30d&limit=5&offset=5");
    expect(second.body.data).toEqual(expected.slice(5, 10));
    expect(second.body.meta.next_offset).toBe(expected.length > 10 ? 10 : null);
    const past = await sim.get(`/api/v1/trending?window=30d&offset=${expected.length}`);
    expect(past.body).toMatchObject({
      data: [],
      meta: { count: 0, total: expected.length, next_offset: null },
    });
  });

  it("lists only gains: every delta of the window is positive, and no project appears twice", () => {
    for (const [window, rows] of Object.entries(boards)) {
      const key = window === "7d" ? "stars_7d_delta" : "stars_30d_delta";
      expect(rows.every((r) => (r[key] ?? 0) > 0)).toBe(true);
      expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    }
  });

  it("filters by domain, stack layer and category, keeping each project's rank on the whole board", async () => {
    const expected = boards["7d"] as Expected[];
    const top = expected[0] as Expected;
    const inDomain = expected.filter((r) => r.domain === top.domain);
    const byDomain = await sim.get(`/api/v1/trending?domain=${top.domain}&limit=50`);
    expect(byDomain.body.data).toEqual(inDomain);
    expect(byDomain.body.meta.query).toEqual({ window: "7d", domain: top.domain, limit: 50, offset: 0 });

    const layer = expected[1]?.stack_layer as string;
    const byLayer = await sim.get(`/api/v1/trending?stack_layer=${layer}&limit=50`);
    expect(byLayer.body.data.map((r: Expected) => r.rank)).toEqual(
      expected.filter((r) => r.stack_layer === layer).map((r) => r.rank),
    );

    const withSub = expected.find((r) => r.subcategory !== null) as Expected;
    const both = await sim.get(
      `/api/v1/trending?category=${withSub.subcategory}&domain=${withSub.domain}&stack_layer=${withSub.stack_layer}`,
    );
    expect(both.body.data).toEqual(
      expected.filter(
        (r) =>
          r.subcategory === withSub.subcategory &&
          r.domain === withSub.domain &&
          r.stack_layer === withSub.stack_layer,
      ),
    );
    // a subcategory of another domain could match nothing: refused, naming the domain it belongs to
    await sim.expectRefused(
      `/api/v1/trending?category=${withSub.subcategory}&domain=3d-ai`,
      "invalid_parameter",
      `"${withSub.subcategory}" is a subcategory of ${withSub.domain}, not of 3d-ai; category must be one of: ${SUBCATEGORIES_BY_DOMAIN["3d-ai"].join(", ")}.`,
    );
  });

  it.each([
    ["limit=51", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["limit=0", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["window=14d", "invalid_parameter", "window must be one of: 7d, 30d"],
    ["offset=-1", "invalid_parameter", "offset must be an integer of at least 0"],
    ["stack_layer=hardware", "invalid_parameter", "stack_layer must be one of:"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["domain=RAG", "invalid_domain", "Domains are lower case: rag."],
    ["days=7", "invalid_parameter", 'Unknown parameter "days"'],
    [
      "category=nope",
      "invalid_parameter",
      '"nope" is not a subcategory; category must be one of the 179 subcategories',
    ],
    [
      "category=grap-rag",
      "invalid_parameter",
      "(each domain's are listed by /api/v1/methodology). Did you mean graph-rag?",
    ],
    ["category=Graph-RAG", "invalid_parameter", "Subcategories are lower case: graph-rag (of rag)."],
    [
      "domain=rag&category=nope",
      "invalid_parameter",
      '"nope" is not a subcategory of rag; category must be one of: graph-rag, rerankers, retrievers, chunking, rag-applications, rag-frameworks.',
    ],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/trending?${query}`, code, message);
  });
});
