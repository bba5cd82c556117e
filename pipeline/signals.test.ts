// Star trends on hand-made histories, with exact expected values: steady growth, a one-day spike, a star purge, a
// new repository's bootstrap, an unknown window start. Lifecycle stages are tested in lifecycle.test.ts.
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

  it("trusts counts observed before a creation date that moved (a repository re-created or moved under its name)", async () => {
    // 40 nights of steady counts, then GitHub reports the repository created yesterday: its trend is A_steady's,
    // not its whole count gained in a day (PaddleHub in best-of-ml-python's last week: +12,859 "in 7 days")
    await addRepos(db, [{ node: "M_moved", created: ago(1), firstSeen: ago(40) }]);
    await addStars(db, "M_moved", series(40, steady));
    expect(await trends()).toEqual([
      {
        node_id: "M_moved",
        stars_7d_delta: 70,
        stars_30d_delta: 300,
        growth_7d_pct: 5.3,
        growth_30d_pct: 27.52,
        momentum: 0,
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
