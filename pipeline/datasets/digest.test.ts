// ds_whats_new and ds_briefings on a hand-made warehouse: the digest's items and windows, one item per version
// across sources, and the generated sentences of a busy domain, a domain with only a release, and quiet ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { createTable, memoryDb, runTransforms } from "../sql-testing.ts";
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
    await createTable(db, "projects", PROJECTS_COLUMNS, [
      project("a/alpha", { stars: 1000, stars_7d_delta: 300, momentum: 2.5, lifecycle_stage: "growing" }),
      project("b/beta", { stars: 500, stars_7d_delta: 120, momentum: -0.04 }),
      project("c/gamma", { stars: 200, stars_7d_delta: 1, momentum: 1.04 }),
      project("d/delta", { stars: 50, stars_7d_delta: 1 }),
      project("f/fade", { stars: 300, lifecycle_stage: "fading" }),
      project("g/back", { stars: 40, lifecycle_stage: "growing" }),
      project("h/sleep", { stars: 10, lifecycle_stage: "dormant" }),
      project("n/new", { stars: 0, lifecycle_stage: "dormant" }),
      project("r/rag", { domain: "rag", stars: 70 }),
      project("v/vec", { domain: "vector-db", stars: 5 }),
    ]);
    await createTable(db, "transitions", TRANSITIONS_COLUMNS, [
      transition("fade", "2026-11-10", "growing", "fading"),
      // recovered since
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

  it("tells what rose, shipped and faded in a busy domain", async () => {
    expect(
      await db.all(
        "SELECT slug, domain, week, title, summary, body, projects, projects_tracked, rose, shipped, faded FROM ds_briefings WHERE domain = 'agents'",
      ),
    ).toEqual([
      {
        slug: "agents-2026-w47",
        domain: "agents",
        week: "2026-w47",
        title: "agents: a/alpha leads the week",
        summary:
          "In agents, 4 projects gained stars, led by a/alpha (+300), 1 release shipped and 1 project faded.",
        body: [
          "What rose: a/alpha (+300 stars, momentum +2.5), b/beta (+120 stars) and c/gamma (+1 star, momentum +1.0), of 4 projects gaining stars.",
          "What shipped: a/alpha v1.2.0.",
          "What faded: f/fade turned fading (was growing).",
          "In numbers: 8 projects tracked with 2,100 stars; 4 projects gained stars and 1 release shipped in 7 days; 1 project faded in 30 days.",
        ],
        projects: ["a/alpha", "b/beta", "c/gamma", "f/fade"],
        projects_tracked: 8,
        rose: 4,
        shipped: 1,
        faded: 1,
      },
    ]);
  });

  it("says plainly when only a release happened, and when nothing did", async () => {
    expect(
      await db.all(
        "SELECT domain, title, summary, body, projects FROM ds_briefings WHERE domain IN ('rag', 'vector-db') ORDER BY domain",
      ),
    ).toEqual([
      {
        domain: "rag",
        title: "rag: r/rag 2.0 shipped",
        summary: "In rag, no project gained stars, 1 release shipped and none faded.",
        body: [
          "Nothing rose: no project gained stars in the last 7 days.",
          "What shipped: r/rag 2.0.",
          "Nothing faded: no project turned fading or dormant in the last 30 days.",
          "In numbers: 1 project tracked with 70 stars; 0 projects gained stars and 1 release shipped in 7 days; 0 projects faded in 30 days.",
        ],
        projects: ["r/rag"],
      },
      {
        domain: "vector-db",
        title: "vector-db: a quiet week",
        summary:
          "A quiet week in vector-db: no project gained stars or shipped a release in the last 7 days, and none faded in the last 30 days.",
        body: [
          "In numbers: 1 project tracked with 5 stars; 0 projects gained stars and 0 releases shipped in 7 days; 0 projects faded in 30 days.",
        ],
        projects: [],
      },
    ]);
  });
});
