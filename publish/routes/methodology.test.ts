// GET /api/v1/methodology over a release of the simulated world: the document generated from the constants, as
// docs/methodology.md holds it too, and its tier ranges and component bounds hold for every project scored.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSTANTS } from "../../pipeline/methodology.ts";
import { methodologyDocument, methodologyMarkdown } from "../../pipeline/methodology-doc.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { DOMAINS, itemEnvelope, methodologySchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

let sim: SimApp;
// biome-ignore lint/suspicious/noExplicitAny: the body is checked against its schema in the first test.
let body: any;

beforeAll(async () => {
  sim = await sharedSimApp();
  const res = await sim.app.inject({ url: "/api/v1/methodology" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  body = res.json();
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/methodology", () => {
  it("serves the document generated from the constants, with the Markdown docs/methodology.md holds", async () => {
    expect(itemEnvelope(methodologySchema).safeParse(body).success).toBe(true);
    expect(body.meta).toMatchObject({ count: 1, query: {} });
    const { markdown, ...data } = body.data;
    expect(data).toEqual(methodologyDocument());
    expect(markdown).toBe(methodologyMarkdown());
    expect(markdown).toBe(await readFile(new URL("../../docs/methodology.md", import.meta.url), "utf8"));
  });

  it("gives four components of 0–25, each input's cap from its named constant, and the tier ranges", () => {
    const { score, components, tiers } = body.data;
    expect(score).toMatchObject({ range: [0, 100], component_max: 25 });
    expect(components.map((c: { name: string; max_points: number }) => [c.name, c.max_points])).toEqual([
      ["maintenance", 25],
      ["adoption", 25],
      ["maturity", 25],
      ["community", 25],
    ]);
    const value = new Map(CONSTANTS.map((c) => [c.name, c.value]));
    for (const c of components) {
      for (const input of c.inputs) expect(input.max_points).toBe(value.get(input.max_constant));
    }
    expect(tiers.ranges).toEqual([
      { tier: "verified", min: 80, max: 100 },
      { tier: "established", min: 60, max: 79 },
      { tier: "emerging", min: 40, max: 59 },
      { tier: "experimental", min: 0, max: 39 },
    ]);
  });

  it("holds for every project of the release: tiers by those ranges, components within bounds summing to the score", async () => {
    const ranges = body.data.tiers.ranges as { tier: string; min: number; max: number }[];
    const cases = ranges
      .map((r) => `WHEN quality_score BETWEEN ${r.min} AND ${r.max} THEN '${r.tier}'`)
      .join(" ");
    const [row] = await sim.db.all<{ total: bigint; off_tier: bigint; off_sum: bigint; off_bounds: bigint }>(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE quality_tier IS DISTINCT FROM CASE ${cases} END) AS off_tier,
         count(*) FILTER (WHERE maintenance_score + adoption_score + maturity_score + community_score <> quality_score) AS off_sum,
         count(*) FILTER (WHERE greatest(maintenance_score, adoption_score, maturity_score, community_score) > 25
           OR least(maintenance_score, adoption_score, maturity_score, community_score) < 0) AS off_bounds
       FROM projects`,
    );
    expect(Number(row?.total)).toBeGreaterThan(200);
    expect([Number(row?.off_tier), Number(row?.off_sum), Number(row?.off_bounds)]).toEqual([0, 0, 0]);
  });

  it("names the lifecycle stages in test order, every domain, the slug rule and every source", async () => {
    const { lifecycle, taxonomy, slug, sources } = body.data;
    expect(lifecycle.order).toEqual(["dormant", "fading", "launching", "growing", "established", "emerging"]);
    expect(lifecycle.stages.find((s: { stage: string }) => s.stage === "launching")).toEqual({
      stage: "launching",
      rule:
        "Younger than 180 days and at least 200 stars gained in 30 days; it stays launching while it gains at least 100. " +
        "While the 30-day star window is unknown (a gap in the nights), a launching repository stays launching and no other becomes so.",
      constants: ["launching_max_age_days", "launching_enter_stars_30d", "launching_exit_stars_30d"],
    });
    const stages = await sim.db.all<{ s: string }>("SELECT DISTINCT lifecycle_stage AS s FROM projects");
    for (const { s } of stages) expect(lifecycle.order).toContain(s);
    expect(taxonomy.domains.map((d: { domain: string }) => d.domain)).toEqual([...DOMAINS]);
    expect(slug).toContain("lower(owner) || '--' || lower(name)");
    const [mismatched] = await sim.db.all<{ n: bigint }>(
      "SELECT count(*) AS n FROM projects WHERE slug <> lower(owner) || '--' || lower(name)",
    );
    expect(Number(mismatched?.n)).toBe(0);
    expect(sources.map((s: { name: string }) => s.name)).toEqual(SOURCES.map((s) => s.name));
  });
});
