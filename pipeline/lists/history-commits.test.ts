// list_history.sql's commit windows on a small hand-made history: the list's own 90-day count where it records one
// (empty meaning none on a date that records it, never carried forward), commit_count's change on a date without
// the figure, a push older than 90 days meaning none, unknown otherwise.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../core/db.ts";
import { loadHistory } from "./history-input.ts";

const HEADER =
  "snapshot_date,github_id,created_at,last_commit_pushed_at,commit_count,recent_commit_count,star_count";
// Three weekly dates before the list recorded a 90-day count (Nov-Dec 2021, read off commit_count), then dates that
// record it for at least one project.
const LINES = [
  // busy: 2 commits a day throughout; the list counts 180 in 90 days from 2022-01-09 on, then is left empty once
  // (a week with no commit in 90 days cannot follow 180 a week earlier, but that is what the list says: 0)
  ...(
    [
      ["2021-10-01", 1000],
      ["2021-12-30", 1180],
      ["2022-01-09", 1200],
      ["2022-01-16", 1214],
    ] as const
  ).map(([d, count], i) =>
    [d, "a/busy", "2019-01-01", `${d} 10:00:00`, count, i === 2 ? 180 : "", 50].join(","),
  ),
  // quiet: last push 2021-06-01, 40 commits in total, never a 90-day count: none in 90 days on every date
  ...["2021-10-01", "2021-12-30", "2022-01-09", "2022-01-16"].map((d) =>
    [d, "a/quiet", "2019-01-01", "2021-06-01 10:00:00", 40, "", 50].join(","),
  ),
  // steady: the list's count on both dates that record it (2022-01-16 records it through this row alone)
  ...["2022-01-09", "2022-01-16"].map((d, i) =>
    [d, "a/steady", "2019-01-01", `${d} 10:00:00`, 500 + i, 30 + i, 50].join(","),
  ),
  // unread: pushed recently, the list could not read its commit count on 2022-01-16 (empty): unknown that date,
  // not none; on 2021-12-30 its first row has no count 90 days before: unknown too
  ["2021-12-30", "a/unread", "2019-01-01", "2021-12-29 10:00:00", 70, "", 50].join(","),
  ["2022-01-09", "a/unread", "2019-01-01", "2022-01-08 10:00:00", 75, 12, 50].join(","),
  ["2022-01-16", "a/unread", "2019-01-01", "2022-01-15 10:00:00", "", "", 50].join(","),
];

let dir: string;
let rows: { name: string; date: string; c30: number | null; c90: number | null }[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "history-commits-"));
  const file = path.join(dir, "history.csv");
  await writeFile(file, `${[HEADER, ...LINES].join("\n")}\n`);
  const db = await openDb(":memory:");
  try {
    await loadHistory(db, file);
    rows = await db.all(
      `SELECT full_name AS name, snapshot_date::VARCHAR AS date, commits_30d AS c30, commits_90d AS c90
       FROM list_history JOIN list_projects USING (project) ORDER BY name, date`,
    );
  } finally {
    db.close();
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const of = (name: string) => rows.filter((r) => r.name === name).map((r) => [r.date, r.c90]);

describe("list_history: commits in the 90 days before each date", () => {
  it("reads the list's own count, and its empty cell as none on a date that records the figure", () => {
    // 2021-12-30: no date records the figure yet, commit_count's change since 2021-10-01 (90 days) is 180.
    // 2022-01-16: the list's empty cell reads as 0, not the 180 of the week before carried forward.
    expect(of("a/busy")).toEqual([
      ["2021-10-01", null],
      ["2021-12-30", 180],
      ["2022-01-09", 180],
      ["2022-01-16", 0],
    ]);
  });

  it("reads a push older than 90 days as none, and what the list could not read as unknown", () => {
    expect(of("a/quiet")).toEqual([
      ["2021-10-01", 0],
      ["2021-12-30", 0],
      ["2022-01-09", 0],
      ["2022-01-16", 0],
    ]);
    expect(of("a/unread")).toEqual([
      ["2021-12-30", null],
      ["2022-01-09", 12],
      ["2022-01-16", null],
    ]);
  });
});
