// GET /api/v1/contributors/trending over a release of the simulated world: each stack layer's leaderboard of
// contributors gained, recomputed by plain SQL from the public table contributors (counts night by night) and
// projects with the methodology's constants, its filters and pages, and the parameters it refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constantsSql } from "../../pipeline/methodology.ts";
import { contributorsTrendingRecordSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Expected {
  rank: number;
  stack_layer: string;
  full_name: string;
  name: string;
  slug: string;
  description: string | null;
  language: string | null;
  domain: string;
  stars: number;
  contributors_start: number;
  contributors_end: number;
  contributors_gained: number;
  growth_pct: number;
  start_date: string;
  end_date: string;
  lifecycle_stage: string;
  quality_score: number;
  quality_tier: string;
}

let sim: SimApp;
let expected: Expected[];

beforeAll(async () => {
  sim = await sharedSimApp();
  await sim.db.run(constantsSql());
  // first and latest count within the window, from a base of contributors_min_base, growing; the top of each layer,
  // every layer's leaderboard in one list by gain, growth, latest count and full_name
  expected = await sim.db.all<Expected>(
    `WITH counts AS (
       SELECT node_id, min(date) AS first, max(date) AS last, arg_min(contributors, date) AS c0, arg_max(contributors, date) AS c1
       FROM contributors
       WHERE date > DATE '${sim.runDate}' - getvariable('contributors_window_days') AND date <= DATE '${sim.runDate}'
       GROUP BY node_id HAVING min(date) < max(date)
     )
     SELECT row_number() OVER (PARTITION BY p.stack_layer ORDER BY c1 - c0 DESC, (c1 - c0) / c0 DESC, c1 DESC, p.full_name)::INTEGER AS rank,
       p.stack_layer, p.full_name, p.name, p.slug, nullif(p.description, '') AS description,
       nullif(p.language, '') AS language, p.domain, p.stars, c0 AS contributors_start, c1 AS contributors_end,
       c1 - c0 AS contributors_gained, round(100.0 * (c1 - c0) / c0, 1)::DOUBLE AS growth_pct,
       strftime(first, '%Y-%m-%d') AS start_date, strftime(last, '%Y-%m-%d') AS end_date, p.lifecycle_stage,
       p.quality_score, p.quality_tier
     FROM counts JOIN projects p USING (node_id)
     WHERE p.stack_layer IS NOT NULL AND c0 >= getvariable('contributors_min_base') AND c1 > c0
     QUALIFY rank <= getvariable('contributors_trending_size')
     ORDER BY contributors_gained DESC, (c1 - c0) / c0 DESC, contributors_end DESC, p.full_name`,
  );
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/contributors/trending", () => {
  it("lists every layer's leaderboard in one list by default, each record exactly as recomputed", async () => {
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const { status, body } = await sim.get("/api/v1/contributors/trending");
    expect(status).toBe(200);
    expect(body.data).toEqual(expected.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: Math.min(20, expected.length),
      total: expected.length,
      next_offset: expected.length > 20 ? 20 : null,
      query: { limit: 20, offset: 0 },
    });
    for (const record of body.data) {
      expect(contributorsTrendingRecordSchema.safeParse(record).error).toBeUndefined();
    }
  });

  it("gives a stack layer's own leaderboard, ranked from 1, and an empty one where nothing grew", async () => {
    const layers = [...new Set(expected.map((r) => r.stack_layer))];
    for (const layer of layers) {
      const { body } = await sim.get(`/api/v1/contributors/trending?stack_layer=${layer}&limit=50`);
      const board = expected.filter((r) => r.stack_layer === layer);
      expect(body.data).toEqual(board);
      expect(body.data.map((r: Expected) => r.rank)).toEqual(board.map((_, i) => i + 1));
      expect(body.meta.query).toEqual({ stack_layer: layer, limit: 50, offset: 0 });
    }
    // every layer grows in this world (its big projects stay active): a layer narrowed to a domain where none did
    const domains = await sim.db.all<{ domain: string }>(
      "SELECT DISTINCT domain FROM projects ORDER BY domain",
    );
    const [idleLayer, idleDomain] = layers
      .flatMap((l) => domains.map((d) => [l, d.domain]))
      .find(([l, d]) => !expected.some((r) => r.stack_layer === l && r.domain === d)) as [string, string];
    const none = await sim.get(`/api/v1/contributors/trending?stack_layer=${idleLayer}&domain=${idleDomain}`);
    expect(none.body).toMatchObject({ data: [], meta: { count: 0, total: 0, next_offset: null } });
  });

  it("narrows by domain and pages one record at a time", async () => {
    const first = expected[0] as Expected;
    const byDomain = await sim.get(`/api/v1/contributors/trending?domain=${first.domain}`);
    expect(byDomain.body.data).toEqual(expected.filter((r) => r.domain === first.domain));
    const second = await sim.get("/api/v1/contributors/trending?limit=1&offset=1");
    expect(second.body).toMatchObject({
      data: [expected[1]],
      meta: { count: 1, total: expected.length, next_offset: expected.length > 2 ? 2 : null },
    });
  });

  it.each([
    ["limit=51", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["limit=abc", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["stack_layer=hardware", "invalid_parameter", "stack_layer must be one of: model, inference"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["window=30d", "invalid_parameter", 'Unknown parameter "window"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/contributors/trending?${query}`, code, message);
  });
});
