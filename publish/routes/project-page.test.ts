// The pages for people over a simulated world's release: /p/{owner}/{repo} shows the detail's score, breakdown,
// lifecycle, two charts of its 90 nights, releases and badge snippet; /d/{domain} lists the domain's best 50 in the
// quality lists' order, each with a trend line. Compared with the warehouse by plain SQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { DOMAIN_PAGE_ROWS } from "../pages-domain.ts";

/** What Chromium and Firefox send when following a link. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("the pages for people", () => {
  let sim: SimApp;
  beforeAll(async () => {
    sim = await sharedSimApp();
  }, 600_000);
  afterAll(() => sim?.close());

  it("shows a project's score, breakdown, lifecycle, charts, releases and badge", async () => {
    const [row] = await sim.db.all<{ full_name: string; slug: string; releases: number }>(
      `SELECT p.full_name, p.slug, count(r.node_id)::INTEGER AS releases
       FROM projects p JOIN releases r USING (node_id)
       GROUP BY ALL ORDER BY releases DESC, p.full_name LIMIT 1`,
    );
    expect(row).toBeDefined();
    const { full_name, slug } = row as { full_name: string; slug: string };
    const detail = (await sim.get(`/api/v1/projects/${slug}`)).body.data;
    const res = await sim.app.inject({ url: `/p/${full_name}` });
    expect([res.statusCode, res.headers["content-type"], res.headers["cache-control"]]).toEqual([
      200,
      "text/html; charset=utf-8",
      "public, max-age=3600",
    ]);
    const html = res.body;
    expect(html).toContain(
      `<title>${full_name}: AI quality ${detail.quality_score} ${detail.quality_tier}</title>`,
    );
    for (const name of ["maintenance", "adoption", "maturity", "community"]) {
      expect(html).toContain(
        `<tr><td>${name}</td><td class="num">${detail.score_explanation[name].points} / 25</td>`,
      );
    }
    expect(html).toContain(`<strong>${detail.lifecycle_stage}</strong> since ${detail.lifecycle_since}`);
    // one chart of stars; downloads drawn when the project has any, else said
    expect(html.match(/<path class="series" data-series="stars"/g)).toHaveLength(1);
    const downloads = detail.history.downloads_monthly.some((v: number | null) => v !== null && v > 0);
    expect(html.includes('data-series="downloads"')).toBe(downloads);

    expect(html).toContain(
      `<title>Stars of ${full_name}, ${detail.history.from} to ${detail.history.to}</title>`,
    );
    for (const release of detail.releases.latest) expect(html).toContain(`>${release.version}</a>`);
    expect(html).toContain(`<pre><code>${detail.badge_markdown.replace(/&/g, "&amp;")}</code></pre>`);
    expect(html).toContain(`<img src="/badges/${full_name}.svg"`);
    expect(html).toContain(`<a href="/api/v1/projects/${slug}">`);
    expect(html).not.toContain("<script");
  });

  it("draws downloads only from the night the registries were first read, unknown (a gap) before", async () => {
    const [row] = await sim.db.all<{ full_name: string; slug: string; downloads: number }>(
      `SELECT full_name, slug, downloads_monthly::BIGINT AS downloads FROM projects
       WHERE downloads_monthly > 0 ORDER BY stars DESC, full_name LIMIT 1`,
    );
    const { full_name, slug, downloads } = row as { full_name: string; slug: string; downloads: number };
    // the simulated world's registries are read on its last night only (GitHub alone the nine nights before, each
    // snapshot holding 0 downloads): every earlier night is unknown, not 0
    const detail = (await sim.get(`/api/v1/projects/${slug}`)).body.data;
    expect(detail.history.downloads_monthly).toEqual([...Array(89).fill(null), downloads]);
    // so the chart has one known night, drawn as a dot at the right edge of the plot (x 628), not a line from 0
    const html = (await sim.app.inject({ url: `/p/${full_name}` })).body;
    expect(html).toMatch(/<path class="series" data-series="downloads" d="M628 [\d.]+h0"/);
  });

  it("answers a browser 404 with a page saying the repository is not tracked, linking a search", async () => {
    const res = await sim.app.inject({ url: "/p/nobody/nothing", headers: { accept: BROWSER } });
    expect([
      res.statusCode,
      res.headers["content-type"],
      res.headers["cache-control"],
      res.headers.vary,
    ]).toEqual([404, "text/html; charset=utf-8", "no-store", "Accept"]);
    expect(res.body).toContain("<title>Not found (404)</title>");
    expect(res.body).toContain(
      "<p>No tracked project &quot;nobody/nothing&quot;; find its slug with /api/v1/projects?q=&lt;name&gt;.</p>",
    );
    expect(res.body).toContain(
      '<ul><li><a href="/api/v1/projects?q=nothing">Search the tracked projects for &quot;nothing&quot;</a></li><li><a href="/">Home</a></li><li><a href="/docs">The API and its documentation</a></li></ul>',
    );
    expect(res.body).not.toContain("<script");
  });

  it.each([
    ["asking for JSON", "application/json"],
    ["naming no preference (curl)", "*/*"],
    ["sending no Accept", undefined],
  ])("answers a client %s with the error envelope", async (_label, accept) => {
    const res = await sim.app.inject({ url: "/p/nobody/nothing", headers: accept ? { accept } : {} });
    expect([res.statusCode, res.headers["content-type"], res.headers.vary]).toEqual([
      404,
      "application/json; charset=utf-8",
      "Accept",
    ]);
    expect(res.json().detail.error.message).toBe(
      'No tracked project "nobody/nothing"; find its slug with /api/v1/projects?q=<name>.',
    );
  });

  it("lists a domain's best repositories in the quality lists' order, each with a trend line", async () => {
    const [top] = await sim.db.all<{ domain: string; n: number }>(
      "SELECT domain, count(*)::INTEGER AS n FROM projects GROUP BY domain ORDER BY n DESC, domain LIMIT 1",
    );
    const { domain, n } = top as { domain: string; n: number };
    const expected = await sim.db.all<{ full_name: string }>(
      `SELECT full_name FROM projects WHERE domain = $domain
       ORDER BY quality_score DESC, stars DESC, full_name, node_id LIMIT ${DOMAIN_PAGE_ROWS}`,
      { domain },
    );
    const res = await sim.app.inject({ url: `/d/${domain}` });
    expect([res.statusCode, res.headers["content-type"]]).toEqual([200, "text/html; charset=utf-8"]);
    const shown = [...res.body.matchAll(/<td><a href="\/p\/([^"]+)">/g)].map((m) =>
      decodeURIComponent(m[1] ?? ""),
    );
    expect(shown).toEqual(expected.map((e) => e.full_name));
    expect(res.body).toContain(
      `The ${expected.length} best of ${n.toLocaleString("en-US")} tracked repositories`,
    );
    // a trend line per row (a repository with fewer than two nights draws only its frame)
    expect(res.body.match(/<td class="trend"><svg /g)).toHaveLength(expected.length);
    expect(res.body).not.toContain("<script");
  });

  it("refuses a domain that does not exist with invalid_domain; a browser gets a page linking every domain's", async () => {
    const res = await sim.app.inject({ url: "/d/astrology" });
    expect([res.statusCode, res.json().detail.error.code]).toEqual([422, "invalid_domain"]);
    const page = await sim.app.inject({ url: "/d/astrology", headers: { accept: BROWSER } });
    expect([page.statusCode, page.headers["content-type"]]).toEqual([422, "text/html; charset=utf-8"]);
    expect(page.body).toContain("<title>No such domain (422)</title>");
    expect(page.body).toContain(
      `<p>&quot;astrology&quot; is not a supported domain; domain must be one of: ${DOMAINS.join(", ")}.</p>`,
    );
    const links = [...page.body.matchAll(/<li><a href="([^"]+)">/g)].map((m) => m[1]);
    expect(links).toEqual([...DOMAINS.map((d) => `/d/${d}`), "/", "/docs"]);
  });
});
