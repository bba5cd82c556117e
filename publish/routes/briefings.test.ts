// GET /api/v1/briefings over a release of the simulated world: the list of weeks with news checked against
// ds_briefings by plain SQL, newest first, the domain filter and pages, the text naming the real numbers of each
// domain's top movers (read from projects), and the parameters refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { briefingSummarySchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Summary {
  slug: string;
  domain: string;
  week: string;
  title: string;
  summary: string;
  published: string;
}

let sim: SimApp;
let listed: Summary[];

beforeAll(async () => {
  sim = await sharedSimApp();
  listed = await sim.db.all<Summary>(
    `SELECT slug, domain, week, title, summary, strftime(date, '%Y-%m-%d') AS published
     FROM ds_briefings WHERE NOT is_quiet ORDER BY date DESC, domain`,
  );
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/briefings", () => {
  it("lists the weeks with news, newest first, then by domain; quiet weeks have no briefing", async () => {
    const [quiet] = await sim.db.all<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM ds_briefings WHERE is_quiet",
    );
    // the simulated world: 30 domains in the week of 2026-11-20, 3 of them quiet
    expect(listed).toHaveLength(27);
    expect(quiet?.n).toBe(3);
    expect(listed[0]).toMatchObject({ week: "2026-w47", published: sim.runDate });
    const { status, body } = await sim.get("/api/v1/briefings");
    expect(status).toBe(200);
    expect(body.data).toEqual(listed.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: 20,
      total: 27,
      next_offset: 20,
      query: { limit: 20, offset: 0 },
    });
    for (const item of body.data) expect(briefingSummarySchema.safeParse(item).success).toBe(true);
  });

  it("filters by domain and pages", async () => {
    const transformers = await sim.get("/api/v1/briefings?domain=transformers");
    expect(transformers.body.data).toEqual(listed.filter((b) => b.domain === "transformers"));
    expect(transformers.body.data.map((b: Summary) => b.slug)).toEqual(["transformers-2026-w47"]);
    expect(transformers.body.meta.query).toEqual({ domain: "transformers", limit: 20, offset: 0 });
    const [quiet] = await sim.db.all<{ domain: string }>(
      "SELECT domain FROM ds_briefings WHERE is_quiet ORDER BY domain LIMIT 1",
    );
    const none = await sim.get(`/api/v1/briefings?domain=${quiet?.domain}`);
    expect(none.body).toMatchObject({ data: [], meta: { count: 0, total: 0, next_offset: null } });

    const page = await sim.get("/api/v1/briefings?limit=5&offset=15");
    expect(page.body.data).toEqual(listed.slice(15, 20));
    expect(page.body.meta).toMatchObject({ count: 5, total: 27, next_offset: 20 });
    const first = await sim.get("/api/v1/briefings?limit=5");
    expect(first.body.meta.next_offset).toBe(5);
  });

  it("states each domain's top movers with their real gains and stars", async () => {
    const movers = await sim.db.all<{
      domain: string;
      full_name: string;
      delta: number;
      stars: number;
      n: number;
    }>(
      `SELECT domain, full_name, stars_7d_delta::INTEGER AS delta, stars,
         row_number() OVER (PARTITION BY domain ORDER BY stars_7d_delta DESC, stars DESC, full_name)::INTEGER AS n
       FROM projects WHERE stars_7d_delta > 0 QUALIFY n <= 3 ORDER BY domain, n`,
    );
    expect(movers.length).toBeGreaterThan(20);
    const { body } = await sim.get("/api/v1/briefings?limit=100");
    for (const mover of movers) {
      const briefing = body.data.find((b: Summary) => b.domain === mover.domain) as Summary;
      const detail = await sim.get(`/api/v1/briefings/${briefing.slug}`);
      const stars = `${mover.delta.toLocaleString("en-US")} ${mover.delta === 1 ? "star" : "stars"}`;
      expect(detail.body.data.body[0]).toContain(
        `${mover.full_name} (+${stars} to ${mover.stars.toLocaleString("en-US")}`,
      );
      if (mover.n === 1) {
        expect(briefing.title).toBe(`${mover.domain}: ${mover.full_name} leads the week`);
        expect(briefing.summary).toContain(
          `led by ${mover.full_name} (+${mover.delta.toLocaleString("en-US")})`,
        );
      }
    }
    // the leader of the simulated week, in words
    const top = body.data.find((b: Summary) => b.domain === "3d-ai");
    expect(top.summary).toBe("In 3d-ai, 2 projects gained stars, led by tolukzi-research/rodux-mesh (+19).");
  });

  it.each([
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["limit=101", "invalid_parameter", "limit must be an integer from 1 to 100"],
    ["offset=-1", "invalid_parameter", "offset must be an integer of at least 0"],
    ["week=2026-w47", "invalid_parameter", 'Unknown parameter "week"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/briefings?${query}`, code, message);
  });
});
