// Star trends, lifecycle stages and transitions on hand-made histories, with exact expected values: steady growth,
// a one-day spike, a star purge, a new repository's bootstrap, an unknown window start; hysteresis and the
// finished-project rule night by night.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isoDay } from "../core/clock.ts";
import { type Db, openDb } from "../core/db.ts";
import { ensureRawTables, runTransform, setScoreVariables } from "./score.ts";

const RUN = "2026-11-20";
const DAY_MS = 86_400_000;
/** The day `n` days before (negative: after) the run date. */
const ago = (n: number, from = RUN) => isoDay(new Date(Date.parse(from) - n * DAY_MS));

async function addStars(db: Db, node: string, days: Array<[number, number]>, table = "raw_github_repos") {
  for (const [n, stars] of days) {
    await (table === "raw_github_repos"
      ? db.run(
          `INSERT INTO raw_github_repos (run_date, node_id, full_name, owner, name, topics, stars, forks, watchers,
             open_issues, closed_issues, open_prs, merged_prs, created_at, updated_at, is_archived, is_fork,
             commits_30d, commits_90d, commits_365d, releases_total, fetched_at)
           VALUES ($1::DATE, $2, 'o/' || $2, 'o', $2, [], $3, 0, 0, 0, 0, 0, 0, TIMESTAMP '2024-01-01', now(), false,
             false, 0, 0, 0, 0, now())`,
          [ago(n), node, stars],
        )
      : db.run(`INSERT INTO raw_github_stars VALUES ($1::DATE, $2, 'o/' || $2, $3::DATE, $4, now())`, [
          RUN,
          node,
          ago(n),
          stars,
        ]));
  }
}

/** feat_repos and feat_tracked as feat_stars reads them: creation day and first night per repository. */
async function addRepos(db: Db, repos: Array<{ node: string; created: string; firstSeen: string }>) {
  await db.run("CREATE OR REPLACE TABLE feat_repos (node_id VARCHAR, created_at TIMESTAMP)");
  await db.run("CREATE OR REPLACE TABLE feat_tracked (node_id VARCHAR, first_seen DATE)");
  for (const r of repos) {
    await db.run("INSERT INTO feat_repos VALUES ($1, $2::TIMESTAMP)", [r.node, r.created]);
    await db.run("INSERT INTO feat_tracked VALUES ($1, $2::DATE)", [r.node, r.firstSeen]);
  }
}

/** Steady growth: 1,000 stars 40 days ago, 10 more each day. */
const steady = (n: number) => 1000 + 10 * (40 - n);
const series = (from: number, value: (n: number) => number): Array<[number, number]> =>
  Array.from({ length: from + 1 }, (_, i) => [from - i, value(from - i)]);

describe("feat_stars", () => {
  let db: Db;
  beforeEach(async () => {
    db = await openDb(":memory:");
    await ensureRawTables(db);
    await setScoreVariables(db, RUN);
  });
  afterEach(() => db.close());

  async function trends() {
    await runTransform(db, "feat_stars");
    return db.all("SELECT * FROM feat_stars ORDER BY node_id");
  }

  it("measures steady growth, ignores a one-day spike and does not count a purge as lost stars", async () => {
    await addRepos(db, [
      { node: "A_steady", created: "2024-01-01", firstSeen: ago(40) },
      { node: "B_spike", created: "2024-01-01", firstSeen: ago(40) },
      { node: "C_purge", created: "2024-01-01", firstSeen: ago(40) },
    ]);
    await addStars(db, "A_steady", series(40, steady));
    // 5,000 stars for one day, three days ago, gone the next day
    await addStars(
      db,
      "B_spike",
      series(40, (n) => steady(n) + (n === 3 ? 5000 : 0)),
    );
    // 500 stars purged ten days ago, for good
    await addStars(
      db,
      "C_purge",
      series(40, (n) => steady(n) - (n <= 10 ? 500 : 0)),
    );
    expect(await trends()).toEqual([
      // counts are medians of three days, so the 7-day window starts at the count of 8 days ago: 1,320
      {
        node_id: "A_steady",
        stars_7d_delta: 70,
        stars_30d_delta: 300,
        growth_7d_pct: 5.3,
        growth_30d_pct: 27.52,
        momentum: 0,
      },
      {
        node_id: "B_spike",
        stars_7d_delta: 70,
        stars_30d_delta: 300,
        growth_7d_pct: 5.3,
        growth_30d_pct: 27.52,
        momentum: 0,
      },
      // the three days around the purge gain nothing; the 7-day window, after it, is as steady as A's, measured
      // against the lower count
      {
        node_id: "C_purge",
        stars_7d_delta: 70,
        stars_30d_delta: 270,
        growth_7d_pct: 8.54,
        growth_30d_pct: 24.77,
        momentum: 0.111,
      },
    ]);
  });

  it("reads a new repository's first days from its stargazer bootstrap, and knows nothing before a gap", async () => {
    await addRepos(db, [
      { node: "N_new", created: ago(5), firstSeen: RUN },
      { node: "U_unknown", created: "2023-05-01", firstSeen: ago(3) },
    ]);
    // created five days ago: 100 stars a day, read from the stargazer list on its first night (today)
    await addStars(
      db,
      "N_new",
      [5, 4, 3, 2, 1].map((n) => [n, 100 * (6 - n)] as [number, number]),
      "stars",
    );
    await addStars(db, "N_new", [[0, 600]]);
    // first seen three days ago, old, and past the REST budget: no bootstrap, so no window start is known
    await addStars(
      db,
      "U_unknown",
      series(3, (n) => 900 + n),
    );
    expect(await trends()).toEqual([
      {
        node_id: "N_new",
        stars_7d_delta: 500,
        stars_30d_delta: 500,
        growth_7d_pct: 2000,
        growth_30d_pct: 2000,
        momentum: 3.286,
      },
      {
        node_id: "U_unknown",
        stars_7d_delta: null,
        stars_30d_delta: null,
        growth_7d_pct: null,
        growth_30d_pct: null,
        momentum: null,
      },
    ]);
  });
});

interface Night {
  stars?: number;
  stars30?: number;
  growth30?: number;
  sinceCommit?: number;
  commits30?: number;
  commits90?: number;
  commits365?: number;
  archived?: boolean;
  finished?: boolean;
  quality?: number;
  age?: number;
}

/** The inputs score_lifecycle reads, by hand, for one night: one row per repository. */
async function night(db: Db, runDate: string, repos: Record<string, Night>) {
  await setScoreVariables(db, runDate);
  await db.run(`CREATE OR REPLACE TABLE feat_repos (node_id VARCHAR, full_name VARCHAR, is_archived BOOLEAN,
    stars INTEGER, commits_30d INTEGER, commits_90d INTEGER, commits_365d INTEGER, created_at TIMESTAMP,
    last_commit_at TIMESTAMP)`);
  await db.run(
    "CREATE OR REPLACE TABLE feat_stars (node_id VARCHAR, stars_30d_delta BIGINT, growth_30d_pct DOUBLE)",
  );
  await db.run("CREATE OR REPLACE TABLE score_quality (node_id VARCHAR, quality_score INTEGER)");
  await db.run("CREATE OR REPLACE TABLE score_components (node_id VARCHAR, is_finished BOOLEAN)");
  for (const [node, r] of Object.entries(repos)) {
    await db.run(
      "INSERT INTO feat_repos VALUES ($1, 'o/' || $1, $2, $3, $4, $5, $6, $7::TIMESTAMP, $8::TIMESTAMP)",
      [
        node,
        r.archived ?? false,
        r.stars ?? 2000,
        r.commits30 ?? 20,
        r.commits90 ?? 60,
        r.commits365 ?? 240,
        ago(r.age ?? 1000, runDate),
        ago(r.sinceCommit ?? 1, runDate),
      ],
    );
    await db.run("INSERT INTO feat_stars VALUES ($1, $2, $3)", [node, r.stars30 ?? 40, r.growth30 ?? 2]);
    await db.run("INSERT INTO score_quality VALUES ($1, $2)", [node, r.quality ?? 50]);
    await db.run("INSERT INTO score_components VALUES ($1, $2)", [node, r.finished ?? false]);
  }
  await runTransform(db, "score_lifecycle");
  await runTransform(db, "transitions");
  return Object.fromEntries(
    (
      await db.all<{ node_id: string; lifecycle_stage: string }>(
        "SELECT node_id, lifecycle_stage FROM score_lifecycle ORDER BY node_id",
      )
    ).map((r) => [r.node_id, r.lifecycle_stage]),
  );
}

describe("score_lifecycle and transitions", () => {
  let db: Db;
  beforeEach(async () => {
    db = await openDb(":memory:");
    await ensureRawTables(db);
  });
  afterEach(() => db.close());

  it("stages repositories with hysteresis and records every change once", async () => {
    // G: growth around the growing thresholds (enter at 10%, stay from 5%)
    // F: commits stop (fading after 120 days), one commit 50 days ago is not enough to leave (within 60 days AND
    //    activity back to half its yearly pace), a busy month is
    // D: archived (dormant), unarchived with 1 commit (still dormant), then 5 commits in 30 days (revived)
    // X: a finished project: no commit for 400 days yet neither fading nor dormant
    // L: a young repository launching (200 stars in 30 days to enter, 100 to stay)
    const plans: Array<Record<string, Night>> = [
      {
        G: { growth30: 8 },
        F: { sinceCommit: 100 },
        D: { archived: true },
        X: { sinceCommit: 400, finished: true },
        L: { age: 40, stars: 150, stars30: 150, growth30: 8 },
      },
      {
        G: { growth30: 12 },
        F: { sinceCommit: 130, commits30: 0, commits90: 0 },
        D: { archived: false, commits30: 1, sinceCommit: 2 },
        X: { sinceCommit: 401, finished: true },
        L: { age: 41, stars: 300, stars30: 250, growth30: 500 },
      },
      {
        G: { growth30: 7 },
        F: { sinceCommit: 50, commits30: 0, commits90: 1, commits365: 30 },
        D: { commits30: 5, sinceCommit: 1 },
        X: { sinceCommit: 402, finished: true },
        L: { age: 42, stars: 380, stars30: 120, growth30: 90 },
      },
      {
        G: { growth30: 4 },
        F: { sinceCommit: 3, commits30: 15, commits90: 30, commits365: 40 },
        D: { commits30: 5, sinceCommit: 1 },
        X: { sinceCommit: 403, finished: true },
        L: { age: 43, stars: 420, stars30: 90, growth30: 30 },
      },
    ];
    const stages = [];
    for (const [i, plan] of plans.entries()) stages.push(await night(db, ago(3 - i), plan));
    expect(stages).toEqual([
      { D: "dormant", F: "established", G: "established", L: "emerging", X: "established" },
      { D: "dormant", F: "fading", G: "growing", L: "launching", X: "established" },
      { D: "established", F: "fading", G: "growing", L: "launching", X: "established" },
      { D: "established", F: "established", G: "established", L: "growing", X: "established" },
    ]);
    expect(
      await db.all("SELECT node_id, date, from_stage, to_stage FROM transitions ORDER BY date, node_id"),
    ).toEqual(
      [
        ["D", 3, null, "dormant"],
        ["F", 3, null, "established"],
        ["G", 3, null, "established"],
        ["L", 3, null, "emerging"],
        ["X", 3, null, "established"],
        ["F", 2, "established", "fading"],
        ["G", 2, "established", "growing"],
        ["L", 2, "emerging", "launching"],
        ["D", 1, "dormant", "established"],
        ["F", 0, "fading", "established"],
        ["G", 0, "growing", "established"],
        ["L", 0, "launching", "growing"],
      ].map(([node_id, n, from_stage, to_stage]) => ({
        node_id,
        date: new Date(`${ago(n as number)}T00:00:00Z`),
        from_stage,
        to_stage,
      })),
    );
    // running the last night again changes nothing
    await night(db, RUN, plans[3] as Record<string, Night>);
    expect(await db.all("SELECT count(*) AS n FROM transitions")).toEqual([{ n: 12 }]);
    expect(
      await db.all(
        "SELECT node_id, lifecycle_since FROM score_lifecycle WHERE node_id IN ('X', 'D') ORDER BY 1",
      ),
    ).toEqual([
      { node_id: "D", lifecycle_since: new Date(`${ago(1)}T00:00:00Z`) },
      { node_id: "X", lifecycle_since: new Date(`${ago(3)}T00:00:00Z`) },
    ]);
  });
});
