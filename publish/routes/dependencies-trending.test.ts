// GET /api/v1/dependencies/trending over a release of the simulated world: the rising-downloads leaderboards of
// PyPI and npm, checked against the warehouse by plain SQL (ds_dependencies_trending with packages and projects,
// and the week-against-month growth recomputed from the public table packages), filters, pages and refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constantsSql } from "../../pipeline/methodology.ts";
import { dependencyTrendingRecordSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Expected {
  rank: number;
  registry: string;
  package: string;
  version: string | null;
  url: string;
  full_name: string;
  slug: string;
  domain: string;
  downloads_monthly: number;
  downloads_weekly: number | null;
  growth_pct: number;
  growth_method: string;
  dependents: number;
}

let sim: SimApp;
let expected: Expected[];

beforeAll(async () => {
  sim = await sharedSimApp();
  await sim.db.run(constantsSql());
  expected = await sim.db.all<Expected>(
    `SELECT d.rank::INTEGER AS rank, d.registry, d.package, k.version,
       CASE d.registry WHEN 'pypi' THEN 'https://pypi.org/project/' || d.package || '/'
         ELSE 'https://www.npmjs.com/package/' || d.package END AS url,
       p.full_name, p.slug, p.domain, k.downloads_monthly, k.downloads_weekly::BIGINT AS downloads_weekly,
       d.growth_pct, d.method AS growth_method, k.dependents
     FROM ds_dependencies_trending d JOIN projects p USING (full_name) JOIN packages k USING (registry, package)
     ORDER BY d.growth_pct DESC, d.rank, d.registry`,
  );
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/dependencies/trending", () => {
  it("lists both registries' leaderboards by growth by default, each record exactly as in the warehouse", async () => {
    expect(new Set(expected.map((r) => r.registry))).toEqual(new Set(["pypi", "npm"]));
    const { status, body } = await sim.get("/api/v1/dependencies/trending");
    expect(status).toBe(200);
    expect(body.data).toEqual(expected.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: Math.min(20, expected.length),
      total: expected.length,
      next_offset: expected.length > 20 ? 20 : null,
      query: { limit: 20, offset: 0 },
    });
    for (const record of body.data)
      expect(dependencyTrendingRecordSchema.safeParse(record).error).toBeUndefined();
  });

  it("ranks by the last week's daily rate against the last month's, recomputed from the packages table", async () => {
    const rates = await sim.db.all<{ registry: string; package: string; growth_pct: number }>(
      `SELECT registry, package,
         round(least(100.0 * (downloads_weekly / 7) / (downloads_monthly / 30) - 100, getvariable('dependencies_growth_cap_pct')), 1) AS growth_pct
       FROM packages
       WHERE registry IN ('pypi', 'npm') AND NOT is_stale AND downloads_weekly IS NOT NULL
         AND downloads_monthly >= getvariable('dependencies_min_monthly')
         AND 100.0 * (downloads_weekly / 7) / (downloads_monthly / 30) > 100
       ORDER BY growth_pct DESC,
         -- a registry's leaderboard ranks by the growth before rounding: packages tied once rounded keep that order
         rank() OVER (PARTITION BY registry ORDER BY least(100.0 * (downloads_weekly / 7) / (downloads_monthly / 30) - 100,
           getvariable('dependencies_growth_cap_pct')) DESC, downloads_monthly DESC, package), registry`,
    );
    const { body } = await sim.get("/api/v1/dependencies/trending?limit=50");
    const weekly = body.data.filter((r: Expected) => r.growth_method === "weekly_rate");
    expect(weekly.map((r: Expected) => [r.registry, r.package, r.growth_pct])).toEqual(
      rates.map((r) => [r.registry, r.package, r.growth_pct]),
    );
  });

  it("gives a registry's own leaderboard, ranked from 1, and narrows by domain", async () => {
    for (const registry of ["pypi", "npm"]) {
      const board = expected.filter((r) => r.registry === registry);
      const { body } = await sim.get(`/api/v1/dependencies/trending?registry=${registry}`);
      expect(body.data).toEqual(board);
      expect(body.data.map((r: Expected) => r.rank)).toEqual(board.map((_, i) => i + 1));
      expect(body.meta.query).toEqual({ registry, limit: 20, offset: 0 });
    }
    const first = expected[0] as Expected;
    const byDomain = await sim.get(`/api/v1/dependencies/trending?domain=${first.domain}`);
    expect(byDomain.body.data).toEqual(expected.filter((r) => r.domain === first.domain));
    const other = expected.find((r) => r.registry !== first.registry) as Expected;
    const both = await sim.get(
      `/api/v1/dependencies/trending?domain=${first.domain}&registry=${other.registry}`,
    );
    expect(both.body.data).toEqual(
      expected.filter((r) => r.domain === first.domain && r.registry === other.registry),
    );
  });

  it("pages one package at a time", async () => {
    const second = await sim.get("/api/v1/dependencies/trending?limit=1&offset=1");
    expect(second.body).toMatchObject({
      data: [expected[1]],
      meta: { count: 1, total: expected.length, next_offset: expected.length > 2 ? 2 : null },
    });
    const past = await sim.get(`/api/v1/dependencies/trending?offset=${expected.length}`);
    expect(past.body).toMatchObject({
      data: [],
      meta: { count: 0, total: expected.length, next_offset: null },
    });
  });

  it.each([
    ["registry=docker", "invalid_parameter", "registry must be one of: pypi, npm"],
    ["limit=51", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["offset=1.5", "invalid_parameter", "offset must be an integer of at least 0"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["window=7d", "invalid_parameter", 'Unknown parameter "window"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/dependencies/trending?${query}`, code, message);
  });
});
