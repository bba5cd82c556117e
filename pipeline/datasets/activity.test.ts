// ds_velocity, contributors and ds_contributors_trending on a hand-made warehouse: exact ranks, the REST weeks
// rule, contributor rows per fetch, the window, the minimum base and ranking within stack layers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { createTable, memoryDb, runTransforms } from "../sql-testing.ts";
import {
  FEAT_REPOS_COLUMNS,
  PROJECTS_COLUMNS,
  project,
  RAW_GITHUB_ACTIVITY_COLUMNS,
  RUN_DATE,
} from "./fixtures.ts";

const PROJECTS = [
  project("a/alpha", { stars: 500, commits_30d: 50, commits_90d: 120, contributors: 16 }),
  project("b/beta", { domain: "rag", stars: 50, commits_30d: 50, commits_90d: 100, contributors: 106 }),
  project("c/gamma", { domain: "rag", stars: 9, commits_30d: 50, commits_90d: 300, contributors: 30 }),
  project("d/delta", { stack_layer: "inference", commits_30d: 5, commits_90d: 9, contributors: 20 }),
  project("e/eps", { stack_layer: "inference", stars: 10, contributors: 9 }),
];

const activity = (node: string, runDate: string, contributors: number | null, asOf = runDate) => ({
  run_date: runDate,
  node_id: node,
  full_name: node === "N_alpha" && runDate < "2026-11-01" ? "a/old-alpha" : `x/${node.slice(2)}`,
  contributors,
  activity_as_of: asOf,
});

const READ_CONTRIBUTORS =
  "SELECT node_id, full_name, strftime(date, '%Y-%m-%d') AS date, contributors FROM contributors ORDER BY node_id, date";

describe("activity datasets", () => {
  let db: Db;
  beforeAll(async () => {
    db = await memoryDb();
    await createTable(db, "projects", PROJECTS_COLUMNS, PROJECTS);
    await createTable(db, "feat_repos", FEAT_REPOS_COLUMNS, [
      { node_id: "N_alpha", commit_weeks: [1, 2, 10, 10, 10, 15], activity_as_of: "2026-11-18" },
      { node_id: "N_beta", commit_weeks: [0, 0, 30, 10, 10, 10], activity_as_of: "2026-11-19" },
      // fetched 19 days ago: its last weeks are not the last 4 weeks any more
      { node_id: "N_gamma", commit_weeks: [90, 90, 90, 90], activity_as_of: "2026-11-01" },
    ]);
    await createTable(db, "raw_github_activity", RAW_GITHUB_ACTIVITY_COLUMNS, [
      activity("N_alpha", "2026-10-15", 8),
      activity("N_alpha", "2026-10-25", 10),
      // a night past the REST budget carries the count forward: no new row in `contributors`
      activity("N_alpha", "2026-10-26", 10, "2026-10-25"),
      activity("N_alpha", "2026-11-18", 16),
      // GitHub still computing: no count
      activity("N_alpha", "2026-11-19", null),
      activity("N_alpha", "2026-11-21", 99),
      activity("N_beta", "2026-10-22", 100),
      activity("N_beta", "2026-11-19", 106),
      activity("N_gamma", "2026-10-22", 3),
      activity("N_gamma", "2026-11-19", 30),
      activity("N_delta", "2026-10-22", 20),
      activity("N_delta", "2026-11-19", 20),
      activity("N_eps", "2026-10-23", 5),
      activity("N_eps", "2026-11-10", 9),
      // not tracked
      activity("N_zeta", "2026-11-19", 50),
    ]);
    await runTransforms(db, ["ds_velocity", "contributors", "ds_contributors_trending"], RUN_DATE);
  });
  afterAll(() => db.close());

  it("ranks every tracked repository by commits_30d, then the last 4 REST weeks when recent", async () => {
    expect(await db.all("SELECT * FROM ds_velocity")).toEqual([
      {
        rank: 1,
        domain_rank: 1,
        domain: "rag",
        stack_layer: "orchestration",
        full_name: "b/beta",
        slug: "b--beta",
        stars: 50,
        commits_30d: 50,
        commits_4w: 60,
        commits_90d: 100,
        contributors: 106,
      },
      {
        rank: 2,
        domain_rank: 1,
        domain: "agents",
        stack_layer: "orchestration",
        full_name: "a/alpha",
        slug: "a--alpha",
        stars: 500,
        commits_30d: 50,
        commits_4w: 45,
        commits_90d: 120,
        contributors: 16,
      },
      {
        rank: 3,
        domain_rank: 2,
        domain: "rag",
        stack_layer: "orchestration",
        full_name: "c/gamma",
        slug: "c--gamma",
        stars: 9,
        commits_30d: 50,
        commits_4w: null,
        commits_90d: 300,
        contributors: 30,
      },
      {
        rank: 4,
        domain_rank: 2,
        domain: "agents",
        stack_layer: "inference",
        full_name: "d/delta",
        slug: "d--delta",
        stars: 100,
        commits_30d: 5,
        commits_4w: null,
        commits_90d: 9,
        contributors: 20,
      },
      {
        rank: 5,
        domain_rank: 3,
        domain: "agents",
        stack_layer: "inference",
        full_name: "e/eps",
        slug: "e--eps",
        stars: 10,
        commits_30d: 0,
        commits_4w: null,
        commits_90d: 0,
        contributors: 9,
      },
    ]);
  });

  it("keeps one contributor count per repository and fetch date, up to the run date", async () => {
    const rows = await db.all<{ node_id: string }>(READ_CONTRIBUTORS);
    expect(rows.filter((r) => r.node_id === "N_alpha")).toEqual([
      { node_id: "N_alpha", full_name: "a/old-alpha", date: "2026-10-15", contributors: 8 },
      { node_id: "N_alpha", full_name: "a/old-alpha", date: "2026-10-25", contributors: 10 },
      { node_id: "N_alpha", full_name: "x/alpha", date: "2026-11-18", contributors: 16 },
    ]);
    expect(rows).toHaveLength(12);
  });

  it("keeps contributors night by night equal to one run; a rerun changes nothing, an earlier night forgets later ones", async () => {
    const all = await db.all<{ date: string }>(READ_CONTRIBUTORS);
    await db.run("DROP TABLE contributors");
    // nights without a run in between are caught up by the next one
    for (const night of ["2026-10-15", "2026-10-25", "2026-11-10", "2026-11-18", "2026-11-19", RUN_DATE]) {
      await runTransforms(db, ["contributors"], night);
    }
    expect(await db.all(READ_CONTRIBUTORS)).toEqual(all);
    await runTransforms(db, ["contributors"], RUN_DATE);
    expect(await db.all(READ_CONTRIBUTORS)).toEqual(all);
    await runTransforms(db, ["contributors"], "2026-11-18");
    expect(await db.all(READ_CONTRIBUTORS)).toEqual(all.filter((r) => r.date <= "2026-11-18"));
    await runTransforms(db, ["contributors"], RUN_DATE);
    expect(await db.all(READ_CONTRIBUTORS)).toEqual(all);
  });

  it("ranks projects gaining contributors within each stack layer, from a base of 5", async () => {
    expect(
      await db.all(
        `SELECT stack_layer, rank, full_name, strftime(start_date, '%Y-%m-%d') AS start_date,
           strftime(end_date, '%Y-%m-%d') AS end_date, contributors_start, contributors_end, contributors_gained,
           growth_pct
         FROM ds_contributors_trending`,
      ),
    ).toEqual([
      {
        stack_layer: "inference",
        rank: 1,
        full_name: "e/eps",
        start_date: "2026-10-23",
        end_date: "2026-11-10",
        contributors_start: 5,
        contributors_end: 9,
        contributors_gained: 4,
        growth_pct: 80,
      },
      {
        stack_layer: "orchestration",
        rank: 1,
        full_name: "a/alpha",
        start_date: "2026-10-25",
        end_date: "2026-11-18",
        contributors_start: 10,
        contributors_end: 16,
        contributors_gained: 6,
        growth_pct: 60,
      },
      {
        stack_layer: "orchestration",
        rank: 2,
        full_name: "b/beta",
        start_date: "2026-10-22",
        end_date: "2026-11-19",
        contributors_start: 100,
        contributors_end: 106,
        contributors_gained: 6,
        growth_pct: 6,
      },
    ]);
  });
});
