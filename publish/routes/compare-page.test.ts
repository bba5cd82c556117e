// GET /compare?projects=… on a release of the simulated world: the page compares the projects asked, in order, with
// their scores, components and inputs from their details, one overlaid chart of stars and one of downloads (a series
// per project), the untracked names listed; the bounds are the API's 422s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPARE } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

/** What Chromium and Firefox send when following a link. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

let sim: SimApp;
let top: { slug: string; full_name: string; quality_score: number }[];

beforeAll(async () => {
  sim = await sharedSimApp();
  top = await sim.db.all(
    `SELECT slug, full_name, quality_score::INTEGER AS quality_score FROM projects
     WHERE downloads_monthly > 0 ORDER BY stars DESC, full_name LIMIT 3`,
  );
}, 600_000);
afterAll(() => sim?.close());

describe("GET /compare", () => {
  it("draws the projects side by side, a series per project in each chart, the untracked listed", async () => {
    const [a, b, c] = top as [(typeof top)[0], (typeof top)[0], (typeof top)[0]];
    const asked = [c.full_name, a.slug, "nobody--nothing", b.slug];
    const res = await sim.app.inject({ url: `/compare?projects=${asked.join(",")}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    const html = res.body;
    expect(html).not.toContain("<script");
    // the columns in the order asked, each linking to the project's page
    const columns = [
      ...html.matchAll(/<th><span class="swatch"[^>]*><\/span><a href="([^"]+)">([^<]+)<\/a><\/th>/g),
    ];
    expect(columns.map((m) => m[2])).toEqual([c.full_name, a.full_name, b.full_name]);
    expect(columns.map((m) => m[1])).toEqual([c, a, b].map((p) => `/p/${p.full_name}`));
    // the scores the details give
    for (const p of [c, a, b]) {
      const detail = (await sim.get(`/api/v1/projects/${p.slug}`)).body.data;
      expect(detail.quality_score).toBe(p.quality_score);
      expect(html).toContain(`<strong>${p.quality_score}</strong>`);
    }
    // two charts, each with a series per tracked project, named after it
    const charts = html.match(/<svg /g) ?? [];
    expect(charts).toHaveLength(2);
    const series = [...html.matchAll(/<path class="series" data-series="([^"]+)"/g)].map((m) => m[1]);
    expect(series).toEqual([c, a, b, c, a, b].map((p) => p.full_name));
    expect(html).toContain(
      'Not tracked: <code>nobody--nothing</code> (<a href="/api/v1/projects?q=nothing">search for nothing</a>).',
    );
    expect(html).toContain(`/api/v1/compare?projects=${asked.join(",")}`);
    // every component's inputs are rows of the table
    for (const component of ["maintenance", "adoption", "maturity", "community"])
      expect(html).toContain(`${component}: inputs (value → points)`);
  });

  it("shows an unknown input as unknown (fallback) with its fallback's points, as the JSON and the project page do", async () => {
    // two tracked projects whose explanations name an unknown input (the simulated world's issue response times)
    const withFallbacks = await sim.db.all<{ slug: string; full_name: string }>(
      `SELECT p.slug, p.full_name FROM projects p JOIN score_explanations e USING (node_id)
       WHERE json_array_length(json_extract(e.explanation, '$.fallbacks')) > 0 ORDER BY p.stars DESC LIMIT 2`,
    );
    expect(withFallbacks).toHaveLength(2);
    const res = await sim.app.inject({
      url: `/compare?projects=${withFallbacks.map((p) => p.slug).join(",")}`,
      headers: { accept: BROWSER },
    });
    expect(res.statusCode).toBe(200);
    for (const p of withFallbacks) {
      const detail = (await sim.get(`/api/v1/projects/${p.slug}`)).body.data;
      const e = detail.score_explanation;
      const inputs = ["maintenance", "adoption", "maturity", "community"].flatMap((c) => e[c].inputs);
      const marked = inputs.filter((i: { fallback: boolean }) => i.fallback);
      // the JSON: exactly the inputs marked fallback are named, and each has no value
      expect(marked.map((i: { name: string }) => i.name)).toEqual(e.fallbacks);
      expect(marked.every((i: { value: unknown }) => i.value === null)).toBe(true);
      const page = (await sim.app.inject({ url: `/p/${p.full_name}`, headers: { accept: BROWSER } })).body;
      for (const i of marked as { name: string; points: number }[]) {
        expect(res.body).toContain(`unknown (fallback) → ${i.points}`);
        expect(page).toContain(`${i.name} unknown (fallback) → ${i.points}`);
      }
      // the note under the table names the same inputs, and an input with a value is never called unknown there
      expect(page).toContain(
        `scored by their fallback (the share all its known inputs earned): ${e.fallbacks.join(", ")}.`,
      );
      for (const i of inputs.filter((x: { value: unknown }) => x.value !== null) as { name: string }[])
        expect(page).not.toMatch(new RegExp(`${i.name} unknown`));
    }
    expect(res.body).toContain("An input shown “unknown (fallback)” was not known tonight");
  });

  it("answers the not-found page when none is tracked (404), naming them and how to find them", async () => {
    const res = await sim.app.inject({
      url: "/compare?projects=nobody--one,somebody/two",
      headers: { accept: BROWSER },
    });
    expect([res.statusCode, res.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"]);
    expect(res.body).toContain(
      "None of these projects is tracked: nobody--one, somebody/two; find each one&#39;s slug with /api/v1/projects?q=&lt;name&gt;.",
    );
  });

  it("answers a browser's bad list with an HTML page, a JSON client's with the envelope", async () => {
    const browser = await sim.app.inject({ url: "/compare?projects=a--b", headers: { accept: BROWSER } });
    expect([browser.statusCode, browser.headers["content-type"]]).toEqual([422, "text/html; charset=utf-8"]);
    expect(browser.body).toContain(
      `<p>projects must be a comma-separated list of ${COMPARE.min} to ${COMPARE.max} distinct project slugs or owner/repo names; got &quot;a--b&quot;.</p>`,
    );
    expect(browser.body).toContain('<li><a href="/docs">The API and its documentation</a></li>');
    expect(browser.body).not.toContain("<script");
    const json = await sim.app.inject({
      url: "/compare?projects=a--b",
      headers: { accept: "application/json" },
    });
    expect([json.statusCode, json.json().detail.error.code]).toEqual([422, "invalid_parameter"]);
  });

  it.each([
    ["one project", "a--b", `projects must be a comma-separated list of ${COMPARE.min} to ${COMPARE.max}`],
    ["six projects", "a--a,b--b,c--c,d--d,e--e,f--f", `${COMPARE.min} to ${COMPARE.max}`],
  ])("refuses %s with 422 naming the bound", async (_label, projects, message) => {
    await sim.expectRefused(`/compare?projects=${projects}`, "invalid_parameter", message);
  });
});
