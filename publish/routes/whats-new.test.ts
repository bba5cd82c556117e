// GET /api/v1/whats-new over a release of the simulated world: each kind of item checked against the tables it is
// made from (projects for trending, releases for releases, posts for posts) by plain SQL, the look-back of 1 to 30
// days, the kind and domain filters, pages, and the parameters refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsNewItemSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Item {
  kind: "post" | "release" | "trending";
  date: string;
  title: string;
  summary: string;
  url: string;
  full_name: string;
  slug: string;
  domain: string;
  stars: number;
  version: string | null;
  source: string | null;
  stars_7d_delta: number | null;
  points: number | null;
  comments: number | null;
}

let sim: SimApp;
let all: Item[];

const plural = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${n === 1 ? noun : `${noun}s`}`;
const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(date) - days * 86_400_000).toISOString().slice(0, 10);

/** The 30 days' items straight from the tables, in the documented order (newest day; post, release, trending). */
async function expectedItems(): Promise<Item[]> {
  const trending = await sim.db.all<Item>(
    `SELECT 'trending' AS kind, $1 AS date, full_name AS title, full_name, slug, domain, stars, stars_7d_delta
     FROM projects WHERE stars_7d_delta > 0 ORDER BY stars_7d_delta DESC, stars DESC, full_name LIMIT 20`,
    [sim.runDate],
  );
  // non-pre-releases of tracked projects; one per version (GitHub's, else PyPI's, else npm's)
  const releases = await sim.db.all<Item & { package: string | null }>(
    `SELECT 'release' AS kind, strftime(r.released_at, '%Y-%m-%d') AS date, p.full_name, p.slug, p.domain, p.stars,
       r.version, r.source, r.package
     FROM releases r JOIN projects p USING (node_id)
     WHERE NOT r.is_prerelease AND r.released_at::DATE > $1::DATE - 30 AND r.released_at::DATE <= $1::DATE
     QUALIFY row_number() OVER (PARTITION BY r.node_id, ltrim(lower(r.version), 'v')
       ORDER BY CASE r.source WHEN 'github' THEN 1 WHEN 'pypi' THEN 2 ELSE 3 END) = 1
     ORDER BY r.released_at::DATE DESC, p.stars DESC, p.full_name, p.full_name || ' ' || r.version`,
    [sim.runDate],
  );
  const posts = await sim.db.all<Item>(
    `SELECT 'post' AS kind, strftime(k.created_at, '%Y-%m-%d') AS date, k.title, k.hn_url AS url, k.full_name, k.slug,
       k.domain, p.stars, k.points, k.comments
     FROM posts k JOIN projects p USING (slug)
     WHERE k.points >= 10 AND k.created_at::DATE > $1::DATE - 30
     ORDER BY k.created_at::DATE DESC, k.points DESC, p.stars DESC, k.full_name, k.title`,
    [sim.runDate],
  );
  const blank = { version: null, source: null, stars_7d_delta: null, points: null, comments: null };
  const items: Item[] = [
    ...trending.map((t) => ({
      ...blank,
      ...t,
      url: `https://github.com/${t.full_name}`,
      summary: `${t.full_name} gained ${plural(Number(t.stars_7d_delta), "star")} in 7 days, ${t.stars.toLocaleString("en-US")} in all.`,
    })),
    ...releases.map(({ package: pkg, ...r }) => ({
      ...blank,
      ...r,
      title: `${r.full_name} ${r.version}`,
      summary: `${r.full_name} released ${r.version} on ${r.source === "github" ? "GitHub" : r.source === "pypi" ? `PyPI (${pkg})` : `npm (${pkg})`}.`,
      url:
        r.source === "github"
          ? `https://github.com/${r.full_name}/releases/tag/${r.version}`
          : r.source === "pypi"
            ? `https://pypi.org/project/${pkg}/${r.version}/`
            : `https://www.npmjs.com/package/${pkg}/v/${r.version}`,
    })),
    ...posts.map((k) => ({
      ...blank,
      ...k,
      summary: `${plural(Number(k.points), "point")} and ${plural(Number(k.comments), "comment")} on Hacker News, linking ${k.full_name}.`,
    })),
  ];
  const kinds = ["post", "release", "trending"];
  // stable sort: within a day and kind, each list keeps its own order
  return items
    .map((item, i) => ({ item, i }))
    .sort(
      (a, b) =>
        b.item.date.localeCompare(a.item.date) ||
        kinds.indexOf(a.item.kind) - kinds.indexOf(b.item.kind) ||
        a.i - b.i,
    )
    .map(({ item }) => item);
}

beforeAll(async () => {
  sim = await sharedSimApp();
  all = await expectedItems();
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/whats-new", () => {
  it("has every kind in the simulated world's 30 days", () => {
    const count = (kind: string) => all.filter((i) => i.kind === kind).length;
    expect(count("trending")).toBe(20);
    expect(count("release")).toBeGreaterThan(3);
    expect(count("post")).toBeGreaterThan(0);
  });

  it("lists the last 7 days by default, newest day first, each item as its tables say", async () => {
    const expected = all.filter((i) => i.date > daysBefore(sim.runDate, 7));
    const { status, body } = await sim.get("/api/v1/whats-new");
    expect(status).toBe(200);
    expect(body.data).toEqual(expected);
    expect(body.meta).toMatchObject({
      count: expected.length,
      total: expected.length,
      next_offset: null,
      query: { days: 7, limit: 50, offset: 0 },
    });
    for (const item of body.data) expect(whatsNewItemSchema.safeParse(item).success).toBe(true);
  });

  it.each([1, 7, 30])("answers days=%i with the items of that many days", async (days) => {
    const expected = all.filter((i) => i.date > daysBefore(sim.runDate, days));
    const { body } = await sim.get(`/api/v1/whats-new?days=${days}&limit=200`);
    expect(body.data).toEqual(expected);
    expect(body.meta.total).toBe(expected.length);
  });

  it("filters by kind and by domain, and pages", async () => {
    const posts = await sim.get("/api/v1/whats-new?days=30&kind=post");
    expect(posts.body.data).toEqual(all.filter((i) => i.kind === "post"));
    expect(posts.body.meta.query).toEqual({ days: 30, kind: "post", limit: 50, offset: 0 });
    const release = all.find((i) => i.kind === "release") as Item;
    const releases = await sim.get("/api/v1/whats-new?days=30&kind=release");
    expect(releases.body.data).toEqual(all.filter((i) => i.kind === "release"));
    const inDomain = await sim.get(`/api/v1/whats-new?days=30&domain=${release.domain}&limit=200`);
    expect(inDomain.body.data).toEqual(all.filter((i) => i.domain === release.domain));

    const first = await sim.get("/api/v1/whats-new?days=30&limit=10");
    expect(first.body.data).toEqual(all.slice(0, 10));
    expect(first.body.meta).toMatchObject({ count: 10, total: all.length, next_offset: 10 });
    const second = await sim.get("/api/v1/whats-new?days=30&limit=10&offset=10");
    expect(second.body.data).toEqual(all.slice(10, 20));
    const past = await sim.get(`/api/v1/whats-new?days=30&offset=${all.length}`);
    expect(past.body.meta).toMatchObject({ count: 0, total: all.length, next_offset: null });
  });

  it.each([
    ["days=31", "invalid_parameter", "days must be an integer from 1 to 30"],
    ["days=0", "invalid_parameter", "days must be an integer from 1 to 30"],
    ["days=week", "invalid_parameter", "days must be an integer from 1 to 30"],
    ["kind=paper", "invalid_parameter", "kind must be one of: post, release, trending"],
    ["limit=201", "invalid_parameter", "limit must be an integer from 1 to 200"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["window=7d", "invalid_parameter", 'Unknown parameter "window"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/whats-new?${query}`, code, message);
  });
});
