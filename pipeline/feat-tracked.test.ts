// feat_tracked over hand-made raw rows, built by the score stage: a repository renamed twice stays one row
// with its first sighting, a deleted one gets deleted_on, one that comes back after a NOT_FOUND is not gone,
// one not seen for TRACKED_FOR_DAYS is no longer tracked, and rows after the run date are not read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { ensureRawTables, score } from "./score.ts";

/** A raw_github_repos row with only what feat_tracked reads varying; the rest is filler. */
const repo = (run_date: string, node_id: string, full_name: string) => ({
  run_date,
  node_id,
  full_name,
  owner: full_name.split("/")[0],
  name: full_name.split("/")[1],
  topics: ["rag"],
  stars: 1,
  forks: 0,
  watchers: 0,
  open_issues: 0,
  closed_issues: 0,
  open_prs: 0,
  merged_prs: 0,
  created_at: "2025-01-01 00:00:00",
  updated_at: "2026-03-01 00:00:00",
  is_archived: false,
  is_fork: false,
  commits_30d: 0,
  commits_90d: 0,
  commits_365d: 0,
  releases_total: 0,
  fetched_at: `${run_date} 03:00:00`,
});
const gone = (run_date: string, node_id: string, full_name: string) => ({
  run_date,
  node_id,
  full_name,
  reason: "not_found",
  fetched_at: `${run_date} 03:00:00`,
});

const REPOS = [
  // renamed on 03-06 (case and suffix), then moved to another owner on 03-10
  repo("2026-03-01", "R_A", "acme/alpha"),
  repo("2026-03-05", "R_A", "acme/alpha"),
  repo("2026-03-06", "R_A", "Acme/Alpha2"),
  repo("2026-03-10", "R_A", "neworg/alpha2"),
  repo("2026-03-20", "R_A", "neworg/alpha2"),
  repo("2026-03-21", "R_A", "after/run-date"),
  // deleted: NOT_FOUND from 03-03 on
  repo("2026-03-01", "R_B", "b/beta"),
  repo("2026-03-02", "R_B", "b/beta"),
  // NOT_FOUND once on 03-02, then back
  repo("2026-03-01", "R_C", "c/gamma"),
  repo("2026-03-03", "R_C", "c/gamma"),
  repo("2026-03-20", "R_C", "c/gamma"),
  // seen once, long ago: no longer tracked, but not gone
  repo("2026-03-01", "R_D", "d/delta"),
  // first seen after the run date
  repo("2026-03-21", "R_F", "f/later"),
];
const GONE = [
  gone("2026-03-03", "R_B", "b/beta"),
  gone("2026-03-04", "R_B", "b/beta"),
  gone("2026-03-02", "R_C", "c/gamma"),
  gone("2026-03-05", "R_E", "ghost/never-seen"),
];

let db: Db;
beforeAll(async () => {
  db = await openDb(":memory:");
  await ensureRawTables(db);
  for (const [table, rows] of [
    ["raw_github_repos", REPOS],
    ["raw_github_gone", GONE],
  ] as const) {
    for (const row of rows) {
      const columns = Object.keys(row);
      const literal = (v: unknown): string =>
        typeof v === "string"
          ? sqlLiteral(v)
          : Array.isArray(v)
            ? `[${v.map(literal).join(", ")}]`
            : String(v);
      const values = Object.values(row).map(literal);
      await db.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${values.join(", ")})`);
    }
  }
});
afterAll(() => db.close());

async function tracked(runDate: string) {
  await score({ db, runDate, logger: silentLogger });
  return db.all(
    `SELECT node_id, full_name, first_seen::VARCHAR AS first_seen, last_seen::VARCHAR AS last_seen,
            previous_names, renamed_on::VARCHAR AS renamed_on, deleted_on::VARCHAR AS deleted_on, tracked
     FROM feat_tracked ORDER BY node_id`,
  );
}

describe("feat_tracked", () => {
  it("keeps a renamed repository as one row, dates deletions, and forgets the long unseen", async () => {
    expect(await tracked("2026-03-20")).toEqual([
      {
        node_id: "R_A",
        full_name: "neworg/alpha2",
        first_seen: "2026-03-01",
        last_seen: "2026-03-20",
        previous_names: ["acme/alpha", "Acme/Alpha2"],
        renamed_on: "2026-03-10",
        deleted_on: null,
        tracked: true,
      },
      {
        node_id: "R_B",
        full_name: "b/beta",
        first_seen: "2026-03-01",
        last_seen: "2026-03-02",
        previous_names: [],
        renamed_on: null,
        deleted_on: "2026-03-03",
        tracked: false,
      },
      {
        node_id: "R_C",
        full_name: "c/gamma",
        first_seen: "2026-03-01",
        last_seen: "2026-03-20",
        previous_names: [],
        renamed_on: null,
        deleted_on: null,
        tracked: true,
      },
      {
        node_id: "R_D",
        full_name: "d/delta",
        first_seen: "2026-03-01",
        last_seen: "2026-03-01",
        previous_names: [],
        renamed_on: null,
        deleted_on: null,
        tracked: false,
      },
    ]);
  });

  it("reads the history known at an earlier run date", async () => {
    expect(await tracked("2026-03-02")).toEqual([
      {
        node_id: "R_A",
        full_name: "acme/alpha",
        first_seen: "2026-03-01",
        last_seen: "2026-03-01",
        previous_names: [],
        renamed_on: null,
        deleted_on: null,
        tracked: true,
      },
      {
        node_id: "R_B",
        full_name: "b/beta",
        first_seen: "2026-03-01",
        last_seen: "2026-03-02",
        previous_names: [],
        renamed_on: null,
        deleted_on: null,
        tracked: true,
      },
      {
        node_id: "R_C",
        full_name: "c/gamma",
        first_seen: "2026-03-01",
        last_seen: "2026-03-01",
        previous_names: [],
        renamed_on: null,
        deleted_on: "2026-03-02",
        tracked: false,
      },
      {
        node_id: "R_D",
        full_name: "d/delta",
        first_seen: "2026-03-01",
        last_seen: "2026-03-01",
        previous_names: [],
        renamed_on: null,
        deleted_on: null,
        tracked: true,
      },
    ]);
  });
});
