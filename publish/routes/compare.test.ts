// GET /api/v1/compare over a release of the simulated world: 2 to 5 projects in the order asked, byte for byte the
// details of /api/v1/projects/{slug}, their histories over the same 90 nights (null where a project had no snapshot
// or the registries were not yet read, checked against the warehouse's snapshots), unknown names in meta.missing, and the bounds refused with 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPARE } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

let sim: SimApp;
let projects: { node_id: string; slug: string; full_name: string; first: string }[];

beforeAll(async () => {
  sim = await sharedSimApp();
  // the most starred projects, and the youngest one (its nights before the first snapshot are null)
  projects = await sim.db.all(
    `SELECT p.node_id, p.slug, p.full_name, min(s.date)::VARCHAR AS first
     FROM projects p JOIN snapshots s USING (node_id) GROUP BY p.node_id, p.slug, p.full_name, p.stars ORDER BY p.stars DESC, p.full_name`,
  );
}, 600_000);
afterAll(() => sim?.close());

/** The data of /api/v1/projects/{slug} as the response carries it, to compare bytes. */
async function detailText(slug: string): Promise<string> {
  const { text } = await sim.get(`/api/v1/projects/${slug}`);
  return text.slice('{"data":'.length, text.lastIndexOf(',"meta":'));
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON it asked for
type Json = any;

describe("GET /api/v1/compare", () => {
  it("answers the projects asked, in order, each its detail byte for byte, the unknown ones in meta.missing", async () => {
    const [a, b] = projects as [(typeof projects)[0], (typeof projects)[0]];
    const asked = [b.full_name.toUpperCase(), "nobody--nothing", a.slug];
    const { status, body, text } = await sim.get(
      `/api/v1/compare?projects=${encodeURIComponent(asked.join(","))}`,
    );
    expect(status).toBe(200);
    expect(body.data.map((d: Json) => d.slug)).toEqual([b.slug, a.slug]);
    expect(body.meta).toEqual({
      timestamp: expect.any(String),
      count: 2,
      total: 2,
      next_offset: null,
      query: { projects: asked },
      missing: ["nobody--nothing"],
    });
    const data = text.slice(text.indexOf("[") + 1, text.indexOf('],"meta"'));
    expect(data).toBe([await detailText(b.slug), await detailText(a.slug)].join(","));
  });

  it("gives every project's stars and downloads over the same 90 nights, null where unknown", async () => {
    const youngest = [...projects].sort(
      (x, y) => y.first.localeCompare(x.first) || x.slug.localeCompare(y.slug),
    )[0];
    const five = [...projects.slice(0, COMPARE.max - 1), youngest] as (typeof projects)[0][];
    const { body } = await sim.get(`/api/v1/compare?projects=${five.map((p) => p.slug).join(",")}`);
    expect(body.data).toHaveLength(COMPARE.max);
    const runDate = sim.runDate;
    for (const [i, d] of (body.data as Json[]).entries()) {
      const p = five[i] as (typeof five)[0];
      expect([d.history.to, d.history.stars.length, d.history.downloads_monthly.length]).toEqual([
        runDate,
        90,
        90,
      ]);
      expect(d.history.from).toBe((body.data[0] as Json).history.from);
      // night by night from the warehouse
      const nights = await sim.db.all<{ stars: number | null; downloads: number | null }>(
        `SELECT s.stars, s.downloads_monthly AS downloads FROM range(90) AS n(night)
         LEFT JOIN snapshots s ON s.node_id = '${p.node_id}' AND s.date = DATE '${runDate}' - 89 + n.night::INTEGER
         ORDER BY n.night`,
      );
      expect(d.history.stars).toEqual(nights.map((n) => n.stars));
      // the simulated world's registries are read on its last night only (test/sim-release.ts collects GitHub alone
      // the nights before), so the downloads of every earlier night are unknown, not the 0 their snapshots hold
      expect(d.history.downloads_monthly).toEqual(
        nights.map((n, night) => (night < 89 ? null : (n.downloads as number))),
      );
      // the quality fields and the components with their inputs
      expect(d.score_explanation.maintenance.points).toBe(d.maintenance_score);
      expect(Object.keys(d.score_explanation)).toEqual(
        expect.arrayContaining(["maintenance", "adoption", "maturity", "community"]),
      );
    }
    // the youngest project was not tracked on the first nights: nulls there
    expect((body.data.at(-1) as Json).history.stars[0]).toBeNull();
  });

  it.each([
    [
      "one project",
      () => (projects[0] as { slug: string }).slug,
      `projects must be a comma-separated list of ${COMPARE.min} to ${COMPARE.max}`,
    ],
    [
      "six projects",
      () =>
        projects
          .slice(0, COMPARE.max + 1)
          .map((p) => p.slug)
          .join(","),
      `projects must be a comma-separated list of ${COMPARE.min} to ${COMPARE.max}`,
    ],
    ["a project twice", () => "a--b,c--d,a--b", "distinct"],
    ["a malformed name", () => "a--b,bad name", "projects must be"],
  ])("refuses %s with 422 invalid_parameter naming the bound", async (_label, value, message) => {
    await sim.expectRefused(
      `/api/v1/compare?projects=${encodeURIComponent(value())}`,
      "invalid_parameter",
      message,
    );
  });

  it("requires projects, and refuses any other parameter", async () => {
    const missing = await sim.get("/api/v1/compare");
    expect([missing.status, missing.body.detail.error.code]).toEqual([422, "missing_parameter"]);
    const other = await sim.get("/api/v1/compare?projects=a--b,c--d&limit=3");
    expect([other.status, other.body.detail.error.code]).toEqual([422, "invalid_parameter"]);
  });
});
