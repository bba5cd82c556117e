// GET /api/v1/transitions: the collection rendered from the hand-made fixture (first nights and changes older than
// the longest look-back left out, rank = nights ago), then a simulated world's release through the shim, compared
// with plain SQL over the public table transitions and projects: look-backs, filters, pages and refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_DAYS, transitionRecordSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { decodeCollectionIndex } from "../collection-index.ts";
import { renderFixtureCollection } from "../testing.ts";
import { TRANSITIONS_COLLECTION } from "./transitions.ts";

describe("the transitions collection", () => {
  it("renders the changes of the last HISTORY_DAYS.max nights newest first, ranked by nights ago", async () => {
    const files = await renderFixtureCollection(TRANSITIONS_COLLECTION, "2026-11-01");
    // the fixture also holds acme/ragbox's first night (from_stage NULL, 2026-10-25) and oldlab/vecstore's change
    // of 2026-06-01, 153 nights before: neither is served
    expect(HISTORY_DAYS.max).toBeLessThan(153);
    expect(JSON.parse(files.get("collections/transitions/_all.json")?.toString() ?? "")).toEqual([
      {
        date: "2026-10-20",
        full_name: "oldlab/vecstore",
        name: "vecstore",
        slug: "oldlab--vecstore",
        domain: "vector-db",
        stack_layer: "data",
        from_stage: "established",
        to_stage: "fading",
        lifecycle_stage: "fading",
        stars: 9000,
        quality_score: 62,
        quality_tier: "established",
      },
      {
        date: "2026-09-15",
        full_name: "acme/agentkit",
        name: "agentkit",
        slug: "acme--agentkit",
        domain: "agents",
        stack_layer: "orchestration",
        from_stage: "emerging",
        to_stage: "growing",
        lifecycle_stage: "growing",
        stars: 5000,
        quality_score: 55,
        quality_tier: "emerging",
      },
    ]);
    const index = decodeCollectionIndex(files.get("collections/transitions/_all.idx") as Buffer);
    expect([...(index.rank ?? [])]).toEqual([12, 47]);
    expect([...(index.filters.get("to_stage")?.keys() ?? [])]).toEqual(["fading", "growing"]);
  });
});

interface Expected {
  date: string;
  full_name: string;
  name: string;
  slug: string;
  domain: string;
  stack_layer: string | null;
  from_stage: string;
  to_stage: string;
  lifecycle_stage: string;
  stars: number;
  quality_score: number;
  quality_tier: string;
}

describe("GET /api/v1/transitions on a simulated world", () => {
  let sim: SimApp;
  let changes: Expected[];

  /** The changes of the last `days` nights. */
  const within = (days: number) =>
    changes.filter((c) => Date.parse(c.date) > Date.parse(sim.runDate) - days * 86_400_000);

  beforeAll(async () => {
    sim = await sharedSimApp();
    changes = await sim.db.all<Expected>(
      `SELECT strftime(t.date, '%Y-%m-%d') AS date, p.full_name, p.name, p.slug, p.domain, p.stack_layer, t.from_stage,
         t.to_stage, p.lifecycle_stage, p.stars, p.quality_score, p.quality_tier
       FROM transitions t JOIN projects p USING (node_id)
       WHERE t.from_stage IS NOT NULL
       ORDER BY t.date DESC, p.stars DESC, p.full_name`,
    );
  }, 600_000);
  afterAll(() => sim?.close());

  it("lists the changes of the last 30 nights by default, newest first, each exactly as in the warehouse", async () => {
    expect(changes.length).toBeGreaterThanOrEqual(3);
    const { status, body } = await sim.get("/api/v1/transitions");
    expect(status).toBe(200);
    expect(body.data).toEqual(within(30));
    expect(body.meta).toMatchObject({
      count: within(30).length,
      total: within(30).length,
      next_offset: null,
      query: { days: 30, limit: 50, offset: 0 },
    });
    for (const record of body.data) expect(transitionRecordSchema.safeParse(record).error).toBeUndefined();
  });

  it("looks back the given number of nights: days=1 is the data's night only, days=k+1 reaches k nights back", async () => {
    const nights = [...new Set(changes.map((c) => c.date))];
    expect(nights.length).toBeGreaterThanOrEqual(2);
    // how many nights before the data's night each night with changes is (the lifecycle's confirmation and dwell
    // decide which nights have any; the newest need not be the data's night)
    const ago = nights.map((n) => Math.round((Date.parse(sim.runDate) - Date.parse(n)) / 86_400_000));
    const edges = ago.flatMap((k) => [k, k + 1]).filter((d) => d >= 1);
    for (const days of [...new Set([1, ...edges, 90])]) {
      const { body } = await sim.get(`/api/v1/transitions?days=${days}`);
      expect([days, body.data]).toEqual([days, within(days)]);
    }
    // the window's edge: k + 1 nights reach the night k before, k nights stop short of it
    const newest = ago[0] as number;
    expect(within(newest + 1).some((c) => c.date === nights[0])).toBe(true);
    expect(within(newest).some((c) => c.date === nights[0])).toBe(false);
    expect(within(1).every((c) => c.date === sim.runDate)).toBe(true);
  });

  it("filters by the stage left, the stage entered and the domain", async () => {
    const first = changes[0] as Expected;
    const into = await sim.get(`/api/v1/transitions?to_stage=${first.to_stage}`);
    expect(into.body.data).toEqual(changes.filter((c) => c.to_stage === first.to_stage));
    const out = await sim.get(`/api/v1/transitions?from_stage=${first.from_stage}&days=90`);
    expect(out.body.data).toEqual(changes.filter((c) => c.from_stage === first.from_stage));
    const byDomain = await sim.get(`/api/v1/transitions?domain=${first.domain}&to_stage=${first.to_stage}`);
    expect(byDomain.body.data).toEqual(
      changes.filter((c) => c.domain === first.domain && c.to_stage === first.to_stage),
    );
    expect(byDomain.body.meta.query).toEqual({
      days: 30,
      domain: first.domain,
      to_stage: first.to_stage,
      limit: 50,
      offset: 0,
    });
    const none = await sim.get("/api/v1/transitions?from_stage=dormant&to_stage=emerging");
    expect(none.body).toMatchObject({ data: [], meta: { count: 0, total: 0, next_offset: null } });
  });

  it("pages one change at a time", async () => {
    const all = within(30);
    const second = await sim.get("/api/v1/transitions?limit=1&offset=1");
    expect(second.body).toMatchObject({
      data: [all[1]],
      meta: { count: 1, total: all.length, next_offset: all.length > 2 ? 2 : null },
    });
  });

  it.each([
    ["days=0", "invalid_parameter", "days must be an integer from 1 to 90"],
    ["days=91", "invalid_parameter", "days must be an integer from 1 to 90"],
    ["limit=201", "invalid_parameter", "limit must be an integer from 1 to 200"],
    ["to_stage=booming", "invalid_parameter", "to_stage must be one of: emerging, launching, growing"],
    ["from_stage=new", "invalid_parameter", "from_stage must be one of: emerging, launching, growing"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/transitions?${query}`, code, message);
  });
});
