// GET /api/v1/projects/bulk over a release of the simulated world: details in the order asked, byte for byte those of
// /api/v1/projects/{slug}, the unknown ones named in meta.missing, and the limit of 20 names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BULK_MAX } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

let sim: SimApp;
let projects: { slug: string; full_name: string }[];

beforeAll(async () => {
  sim = await sharedSimApp();
  projects = await sim.db.all("SELECT slug, full_name FROM projects ORDER BY stars DESC, full_name");
}, 600_000);
afterAll(() => sim?.close());

/** The data of /api/v1/projects/{slug} as the response carries it, to compare bytes. */
async function detailText(slug: string): Promise<string> {
  const { text } = await sim.get(`/api/v1/projects/${slug}`);
  return text.slice('{"data":'.length, text.lastIndexOf(',"meta":'));
}

describe("GET /api/v1/projects/bulk", () => {
  it("answers the details in the order asked, by slug or owner/repo in any case, unknown ones in meta.missing", async () => {
    const [a, b, c] = projects as [(typeof projects)[0], (typeof projects)[0], (typeof projects)[0]];
    const asked = [c.slug, "nobody--nothing", a.full_name.toUpperCase(), b.slug, "nobody/else"];
    const { status, body, text } = await sim.get(
      `/api/v1/projects/bulk?slugs=${encodeURIComponent(asked.join(","))}`,
    );
    expect(status).toBe(200);
    expect(body.data.map((d: { slug: string }) => d.slug)).toEqual([c.slug, a.slug, b.slug]);
    expect(body.meta).toEqual({
      timestamp: expect.any(String),
      count: 3,
      total: 3,
      next_offset: null,
      query: { slugs: asked },
      missing: ["nobody--nothing", "nobody/else"],
    });
    // the same records as the detail endpoint, byte for byte
    const data = text.slice(text.indexOf("[") + 1, text.indexOf('],"meta"'));
    expect(data).toBe(
      [await detailText(c.slug), await detailText(a.slug), await detailText(b.slug)].join(","),
    );
  });

  it(`takes ${BULK_MAX} names and answers an empty list when none is tracked`, async () => {
    const twenty = projects.slice(0, BULK_MAX).map((p) => p.slug);
    const { body } = await sim.get(`/api/v1/projects/bulk?slugs=${twenty.join(",")}`);
    expect(body.data.map((d: { slug: string }) => d.slug)).toEqual(twenty);
    expect(body.meta).toMatchObject({ count: BULK_MAX, total: BULK_MAX, missing: [] });
    const none = await sim.get("/api/v1/projects/bulk?slugs=nobody--nothing");
    expect(none.body).toMatchObject({ data: [], meta: { count: 0, total: 0, missing: ["nobody--nothing"] } });
  });

  it.each([
    [
      "21 names",
      () =>
        projects
          .slice(0, BULK_MAX + 1)
          .map((p) => p.slug)
          .join(","),
      "invalid_parameter",
      `slugs must be a comma-separated list of 1 to ${BULK_MAX} distinct project slugs or owner/repo names`,
    ],
    ["a name twice", () => "a--b,c--d,a--b", "invalid_parameter", "distinct"],
    ["an empty name", () => "a--b,,c--d", "invalid_parameter", "slugs must be"],
    ["a malformed name", () => "a--b,bad name", "invalid_parameter", "slugs must be"],
  ])("refuses %s with 422", async (_label, slugs, code, message) => {
    await sim.expectRefused(`/api/v1/projects/bulk?slugs=${encodeURIComponent(slugs())}`, code, message);
  });

  it("requires slugs", async () => {
    const { status, body } = await sim.get("/api/v1/projects/bulk");
    expect([status, body.detail.error.code]).toEqual([422, "missing_parameter"]);
  });
});
