// ds_whats_new and ds_briefings on a hand-made warehouse: the digest's items and windows, one item per version
// across sources, the generated sentences and facts of a busy domain, a domain with only a release and quiet ones,
// and briefings kept week by week.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { type Cell, createTable, memoryDb, runTransforms } from "../sql-testing.ts";
import {
  POSTS_COLUMNS,
  PROJECTS_COLUMNS,
  project,
  RELEASES_COLUMNS,
  RUN_DATE,
  TRANSITIONS_COLUMNS,
} from "./fixtures.ts";

const release = (
  fullName: string,
  source: string,
  pkg: string | null,
  version: string,
  releasedAt: string,
  isPrerelease = false,
) => ({
  full_name: fullName,
  source,
  package: pkg,
  version,
  released_at: `${releasedAt} 09:00:00`,
  is_prerelease: isPrerelease,
  first_seen: releasedAt,
  node_id: `N_${fullName.split("/")[1]}`,
});

const transition = (name: string, date: string, from: string, to: string) => ({
  node_id: `N_${name}`,
  full_name: `x/${name}`,
  date,
  from_stage: from,
  to_stage: to,
});

describe("digest and briefings", () => {
  let db: Db;
  beforeAll(async () => {
    db = await memoryDb();
    // first tracked long ago but for e/entrant, new this week
    const tracked = (fullName: string, values: Record<string, Cell> = {}) =>
      project(fullName, { first_seen: "2026-10-01", ...values });
    await createTable(db, "projects", `${PROJECTS_COLUMNS}, first_seen DATE`, [
      tracked("a/alpha", { stars: 1000, stars_7d_delta: 300, momentum: 2.5, lifecycle_stage: "growing" }),
      tracked("b/beta", { stars: 500, stars_7d_delta: 120, momentum: -0.04 }),
      tracked("c/gamma", { stars: 200, stars_7d_delta: 1, momentum: 1.04 }),
      tracked("d/delta", { stars: 50, stars_7d_delta: 1 }),
      tracked("e/entrant", { stars: 25, lifecycle_stage: "emerging", first_seen: "2026-11-18" }),
      tracked("f/fade", { stars: 300, lifecycle_stage: "fading" }),
      tracked("g/back", { stars: 40, lifecycle_stage: "growing" }),
      tracked("h/sleep", { stars: 10, lifecycle_stage: "dormant" }),
      tracked("n/new", { stars: 0, lifecycle_stage: "dormant" }),
      tracked("r/rag", { domain: "rag", stars: 70 }),
      tracked("v/vec", { domain: "vector-db", stars: 5 }),
    ]);
    await createTable(db, "transitions", TRANSITIONS_COLUMNS, [
      transition("fade", "2026-11-10", "growing", "fading"),
      // faded, then recovered within the week: a change of stage, not a fade
      transition("back", "2026-11-05", "established", "fading"),
      transition("back", "2026-11-15", "fading", "growing"),
      // before the 30 days
      transition("sleep", "2026-10-01", "fading", "dormant"),
      // first staged dormant: not a change
      { ...transition("new", "2026-11-12", "", "dormant"), from_stage: null },
    ]);
    await createTable(db, "releases", RELEASES_COLUMNS, [
      release("a/alpha", "github", null, "v1.2.0", "2026-11-18"),
      // the same version on PyPI: one item, GitHub's
      release("a/alpha", "pypi", "alpha", "1.2.0", "2026-11-18"),
      release("a/alpha", "pypi", "alpha", "1.3.0rc1", "2026-11-19", true),
      release("b/beta", "npm", "@b/beta", "0.9.0", "2026-11-01"),
      release("r/rag", "pypi", "ragpkg", "2.0", "2026-11-19"),
      release("c/gamma", "github", null, "v0.1", "2026-10-01"),
      { ...release("z/untracked", "pypi", "zed", "1.0", "2026-11-19"), node_id: null },
    ]);
    const post = (objectId: string, points: number, created: string) => ({
      object_id: objectId,
      title: `Show HN: Alpha ${objectId}`,
      url: "https://github.com/a/alpha",
      hn_url: `https://news.ycombinator.com/item?id=${objectId}`,
      full_name: "a/alpha",
      slug: "a--alpha",
      domain: "agents",
      points,
      comments: 10,
      author: "pg",
      created_at: `${created} 12:00:00`,
    });
    await createTable(db, "posts", POSTS_COLUMNS, [
      post("7", 50, "2026-11-19"),
      post("8", 5, "2026-11-19"),
      post("9", 500, "2026-10-01"),
    ]);
    await runTransforms(db, ["ds_whats_new", "ds_briefings"], RUN_DATE);
  });
  afterAll(() => db.close());

  it("lists releases, trending projects and posts of the last 30 days, newest first", async () => {
    expect(
      await db.all(
        "SELECT kind, strftime(date, '%Y-%m-%d') AS date, full_name, title, summary, url, weight FROM ds_whats_new",
      ),
    ).toEqual([
      ...[
        ["a/alpha", 300, 1000],
        ["b/beta", 120, 500],
        ["c/gamma", 1, 200],
        ["d/delta", 1, 50],
      ].map(([name, delta, stars]) => ({
        kind: "trending",
        date: "2026-11-20",
        full_name: name,
        title: name,
        summary: `${name} gained ${delta} ${delta === 1 ? "star" : "stars"} in 7 days, ${stars === 1000 ? "1,000" : stars} in all.`,
        url: `https://github.com/${name}`,
        weight: delta,
      })),
      {
        kind: "post",
        date: "2026-11-19",
        full_name: "a/alpha",
        title: "Show HN: Alpha 7",
        summary: "50 points and 10 comments on Hacker News, linking a/alpha.",
        url: "https://news.ycombinator.com/item?id=7",
        weight: 50,
      },
      {
        kind: "release",
        date: "2026-11-19",
        full_name: "r/rag",
        title: "r/rag 2.0",
        summary: "r/rag released 2.0 on PyPI (ragpkg).",
        url: "https://pypi.org/project/ragpkg/2.0/",
        weight: 70,
      },
      {
        kind: "release",
        date: "2026-11-18",
        full_name: "a/alpha",
        title: "a/alpha v1.2.0",
        summary: "a/alpha released v1.2.0 on GitHub.",
        url: "https://github.com/a/alpha/releases/tag/v1.2.0",
        weight: 1000,
      },
      {
        kind: "release",
        date: "2026-11-01",
        full_name: "b/beta",
        title: "b/beta 0.9.0",
        summary: "b/beta released 0.9.0 on npm (@b/beta).",
        url: "https://www.npmjs.com/package/@b/beta/v/0.9.0",
        weight: 500,
      },
    ]);
  });

  it("writes a briefing for every domain of the taxonomy, slugged by ISO week", async () => {
    const rows = await db.all<{ slug: string; is_quiet: boolean }>("SELECT slug, is_quiet FROM ds_briefings");
    expect(rows).toHaveLength(30);
    expect(rows.filter((r) => !r.is_quiet).map((r) => r.slug)).toEqual(["agents-2026-w47", "rag-2026-w47"]);
  });

  it("tells what rose, shipped, entered, moved and faded in a busy domain, with the facts behind it", async () => {
    expect(
      await db.all(
        "SELECT slug, domain, week, strftime(date, '%Y-%m-%d') AS date, title, summary, body, projects, projects_tracked, stars_total, rose, shipped, entered, moved, faded FROM ds_briefings WHERE domain = 'agents'",
      ),
    ).toEqual([
      {
        slug: "agents-2026-w47",
        domain: "agents",
        week: "2026-w47",
        date: "2026-11-20",
        title: "agents: a/alpha leads the week",
        summary:
          "In agents, 4 projects gained stars, led by a/alpha (+300), 1 release shipped, 1 project entered tracking, 1 project changed stage and 1 project faded.",
        body: [
          "What rose: a/alpha (+300 stars to 1,000, momentum +2.5), b/beta (+120 stars to 500) and c/gamma (+1 star to 200, momentum +1.0), of 4 projects gaining stars.",
          "What shipped: a/alpha v1.2.0.",
          "New: e/entrant (25 stars, emerging).",
          "What moved: g/back turned growing (was fading).",
          "What faded: f/fade turned fading (was growing).",
          "In numbers: 9 projects tracked with 2,125 stars; in 7 days 4 projects gained stars, 1 release shipped, 1 project entered tracking and 1 project changed stage; 1 project faded in 30 days.",
        ],
        projects: ["a/alpha", "b/beta", "c/gamma", "e/entrant", "f/fade", "g/back"],
        projects_tracked: 9,
        stars_total: 2125,
        rose: 4,
        shipped: 1,
        entered: 1,
        moved: 1,
        faded: 1,
      },
    ]);
    const [facts] = await db.all(
      "SELECT to_json(movers)::VARCHAR AS movers, to_json(entrants)::VARCHAR AS entrants, to_json(transitions)::VARCHAR AS transitions, to_json(releases)::VARCHAR AS releases FROM ds_briefings WHERE domain = 'agents'",
    );
    expect(JSON.parse(String(facts?.movers))).toEqual([
      { full_name: "a/alpha", slug: "a--alpha", stars: 1000, stars_7d_delta: 300, momentum: 2.5 },
      { full_name: "b/beta", slug: "b--beta", stars: 500, stars_7d_delta: 120, momentum: -0.04 },
      { full_name: "c/gamma", slug: "c--gamma", stars: 200, stars_7d_delta: 1, momentum: 1.04 },
    ]);
    expect(JSON.parse(String(facts?.entrants))).toEqual([
      {
        full_name: "e/entrant",
        slug: "e--entrant",
        stars: 25,
        first_seen: "2026-11-18",
        lifecycle_stage: "emerging",
      },
    ]);
    expect(JSON.parse(String(facts?.transitions))).toEqual([
      { full_name: "g/back", slug: "g--back", date: "2026-11-15", from_stage: "fading", to_stage: "growing" },
      { full_name: "f/fade", slug: "f--fade", date: "2026-11-10", from_stage: "growing", to_stage: "fading" },
    ]);
    expect(JSON.parse(String(facts?.releases))).toEqual([
      {
        full_name: "a/alpha",
        slug: "a--alpha",
        version: "v1.2.0",
        source: "github",
        date: "2026-11-18",
        url: "https://github.com/a/alpha/releases/tag/v1.2.0",
      },
    ]);
  });

  it("tells only what happened when only a release did, and says a quiet week is quiet", async () => {
    expect(
      await db.all(
        "SELECT domain, title, summary, body, projects FROM ds_briefings WHERE domain IN ('rag', 'vector-db') ORDER BY domain",
      ),
    ).toEqual([
      {
        domain: "rag",
        title: "rag: r/rag 2.0 shipped",
        summary: "In rag, 1 release shipped.",
        body: [
          "What shipped: r/rag 2.0.",
          "In numbers: 1 project tracked with 70 stars; in 7 days 0 projects gained stars, 1 release shipped, 0 projects entered tracking and 0 projects changed stage; 0 projects faded in 30 days.",
        ],
        projects: ["r/rag"],
      },
      {
        domain: "vector-db",
        title: "vector-db: a quiet week",
        summary:
          "A quiet week in vector-db: no project gained stars, shipped a release, entered tracking or changed stage in the last 7 days, and none faded in the last 30 days.",
        body: [
          "In numbers: 1 project tracked with 5 stars; in 7 days 0 projects gained stars, 0 releases shipped, 0 projects entered tracking and 0 projects changed stage; 0 projects faded in 30 days.",
        ],
        projects: [],
      },
    ]);
  });

  it("keeps earlier weeks' briefings; a rerun replaces its own week and any later one", async () => {
    const weeks = async () =>
      await db.all<{ week: string; n: number }>(
        "SELECT week, count(*)::INTEGER AS n FROM ds_briefings GROUP BY week ORDER BY week",
      );
    await runTransforms(db, ["ds_whats_new", "ds_briefings"], "2026-11-23");
    expect(await weeks()).toEqual([
      { week: "2026-w47", n: 30 },
      { week: "2026-w48", n: 30 },
    ]);
    const [first] = await db.all<{ slug: string }>("SELECT slug FROM ds_briefings LIMIT 1");
    expect(first?.slug).toBe("3d-ai-2026-w48");
    await runTransforms(db, ["ds_whats_new", "ds_briefings"], "2026-11-20");
    expect(await weeks()).toEqual([{ week: "2026-w47", n: 30 }]);
  });
});
