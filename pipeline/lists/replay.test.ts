// The list replay on a small hand-made history with the real list's irregularities: weekly nights with a 56-day
// gap, a rename by updated_github_id, a silent rename while out of the list, a row that does not parse. Exact
// star windows, stages, transitions and the problems reported; the same history as a folder of exports and as
// JSON lines replays the same.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BacktestFigure, backtest } from "./backtest.ts";
import { type ReplayRow, replayList, replayRows, replayTransitions } from "./replay.ts";

const DAY_MS = 86_400_000;
const day = (from: string, days: number) =>
  new Date(Date.parse(from) + days * DAY_MS).toISOString().slice(0, 10);
/** Seven weekly dates from 2024-01-01, then a 56-day gap, then two more a week apart. */
const DATES = [...Array.from({ length: 7 }, (_, i) => day("2024-01-01", 7 * i)), "2024-04-08", "2024-04-15"];
const COLUMNS = [
  "snapshot_date",
  "github_id",
  "updated_github_id",
  "created_at",
  "last_commit_pushed_at",
  "commit_count",
  "star_count",
] as const;
type Row = Record<(typeof COLUMNS)[number], string | number | null>;

function rows(): Row[] {
  const out: Row[] = [];
  DATES.forEach((date, i) => {
    const since = (Date.parse(date) - Date.parse("2024-01-01")) / DAY_MS;
    // A: young, 10 stars a day, committing daily
    out.push({
      snapshot_date: date,
      github_id: "acme/rocket",
      updated_github_id: null,
      created_at: "2023-12-01 00:00:00+00:00",
      last_commit_pushed_at: `${day(date, -1)} 12:00:00+00:00`,
      commit_count: 200 + since,
      star_count: `${1000 + 10 * since}.0`,
    });
    // B: old, no push since 2023-06-01 until one on 2024-01-20
    out.push({
      snapshot_date: date,
      github_id: "acme/sleepy",
      updated_github_id: null,
      created_at: "2019-01-01 00:00:00+00:00",
      last_commit_pushed_at: date >= "2024-01-22" ? "2024-01-20 09:00:00+00:00" : "2023-06-01 09:00:00+00:00",
      commit_count: date >= "2024-01-22" ? 301 : 300,
      star_count: 800,
    });
    // C: renamed, the list saying so (updated_github_id) on two dates before it lists the new name; on its last
    // two dates the list could not read its push (empty), which is unknown, not "never pushed"
    if (i < 7)
      out.push({
        snapshot_date: date,
        github_id: i < 5 ? "old-org/cname" : "new-org/cname",
        updated_github_id: i === 3 || i === 4 ? "new-org/cname" : null,
        created_at: "2018-05-05 05:05:05+00:00",
        last_commit_pushed_at: i >= 5 ? null : `${day(date, -2)} 00:00:00+00:00`,
        commit_count: 5000,
        star_count: 3000 + i,
      });
    // D: out of the list on the fourth date, back under a new name (same creation time, never listed together)
    if (i !== 3 && i < 7)
      out.push({
        snapshot_date: date,
        github_id: i < 3 ? "x-org/dee" : "y-org/dee",
        updated_github_id: null,
        created_at: "2017-07-07 07:07:07+00:00",
        last_commit_pushed_at: `${day(date, -3)} 00:00:00+00:00`,
        commit_count: 900,
        star_count: 600,
      });
  });
  return out;
}

const csvCell = (v: string | number | null) => (v === null ? "" : String(v));
const csv = (list: Row[], columns: readonly string[] = COLUMNS) =>
  `${[columns.join(","), ...list.map((r) => columns.map((c) => csvCell(r[c as keyof Row])).join(","))].join("\n")}\n`;

let dir: string;
let fromCsv: ReplayRow[];
let changes: Awaited<ReturnType<typeof replayTransitions>>;
let problems: Awaited<ReturnType<typeof replayList>>["history"]["problems"];
let figures: BacktestFigure[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pis-list-replay-"));
  // one more row whose star count does not parse: set aside with its line (the header is line 1)
  const text = `${csv(rows())}2024-01-08,acme/broken,,2020-01-01 00:00:00+00:00,,1,many\n`;
  await writeFile(path.join(dir, "history.csv"), text);
  const replay = await replayList(path.join(dir, "history.csv"));
  try {
    fromCsv = await replayRows(replay.db);
    changes = await replayTransitions(replay.db);
    problems = replay.history.problems;
    figures = await backtest(replay.db);
  } finally {
    replay.db.close();
  }
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const of = (name: string) => fromCsv.filter((r) => r.full_name === name);

describe("rate --history: a list's history replayed through the nightly's SQL", () => {
  it("sets aside a row that does not parse, with its line, and replays the others", () => {
    expect(problems).toEqual([
      {
        file: path.join(dir, "history.csv"),
        line: rows().length + 2,
        reason: expect.stringContaining('star_count: Error when converting column "star_count"'),
      },
    ]);
    expect(new Set(fromCsv.map((r) => r.full_name))).toEqual(
      new Set(["acme/rocket", "acme/sleepy", "new-org/cname", "y-org/dee"]),
    );
  });

  it("measures star windows in days between the snapshots that exist, NULL across a gap beyond the tolerance", () => {
    const rocket = of("acme/rocket");
    expect(rocket.map((r) => r.date)).toEqual(DATES);
    expect(rocket.map((r) => r.stars)).toEqual(
      DATES.map((d) => 1000 + (10 * (Date.parse(d) - Date.parse("2024-01-01"))) / DAY_MS),
    );
    // 10 stars a day read off weekly counts: 70 a week, 300 in 30 days once 31 days are known (a day's count is
    // the median of it and the two days before, so a window ends the day before its night; on the first day after
    // no count, the median has that day alone: the first week after one reads 60); nothing across the 56-day gap
    expect(rocket.map((r) => r.stars_7d_delta)).toEqual([null, 60, 70, 70, 70, 70, 70, null, 60]);
    expect(rocket.map((r) => r.stars_30d_delta)).toEqual([
      null,
      null,
      null,
      null,
      null,
      300,
      300,
      null,
      null,
    ]);
    expect(rocket.map((r) => r.momentum)).toEqual([null, null, null, null, null, 0, 0, null, null]);
  });

  it("confirms a change of stage in days: two nights a week apart, not three", () => {
    expect(changes.filter((c) => c.full_name === "acme/sleepy")).toEqual([
      { full_name: "acme/sleepy", date: "2024-01-01", from_stage: null, to_stage: "fading" },
      { full_name: "acme/sleepy", date: "2024-01-29", from_stage: "fading", to_stage: "established" },
    ]);
    expect(changes.filter((c) => c.full_name === "acme/rocket")).toEqual([
      { full_name: "acme/rocket", date: "2024-01-01", from_stage: null, to_stage: "emerging" },
      { full_name: "acme/rocket", date: "2024-02-12", from_stage: "emerging", to_stage: "launching" },
    ]);
    // across the 56-day gap its 30-day star window is unknown (NULL): launching holds, where reading the unknown
    // window as no gain made it emerging on 2024-04-15
    expect(of("acme/rocket").map((r) => r.lifecycle_stage)).toEqual([
      ...Array(6).fill("emerging"),
      "launching",
      "launching",
      "launching",
    ]);
  });

  it("keeps one history through a rename and through leaving the list and coming back", () => {
    expect(of("new-org/cname").map((r) => [r.date, r.stars])).toEqual(
      DATES.slice(0, 7).map((d, i) => [d, 3000 + i]),
    );
    // the push the list could not read on the last two dates is carried from 2024-01-27: still established (read
    // as no push since creation, it would have been dormant from 2024-02-12)
    expect(changes.filter((c) => c.full_name === "new-org/cname")).toEqual([
      { full_name: "new-org/cname", date: "2024-01-01", from_stage: null, to_stage: "established" },
    ]);
    expect(of("y-org/dee").map((r) => r.date)).toEqual(DATES.slice(0, 7).filter((_, i) => i !== 3));
    // one first night each: a rename or a return is not a new project
    expect(
      changes
        .filter((c) => c.from_stage === null)
        .map((c) => c.full_name)
        .sort(),
    ).toEqual(["acme/rocket", "acme/sleepy", "new-org/cname", "y-org/dee"]);
  });

  it("backtests the stages against what came next, beside the naive quiet-for-120-days rule", () => {
    // the one quarter with nights (2024-01-01) has no night a year or six months later: nothing to judge there.
    // Changes: sleepy fading -> established, rocket emerging -> launching (launching held across the gap, its star
    // window unknown); the naive rule changes once (sleepy's push of 2024-01-20). 294 project-days replayed.
    const by = Object.fromEntries(figures.map((f) => [f.figure, f]));
    expect(by.not_revived).toMatchObject({ n: 0, hits: 0, naive_n: 0, value: null, meets_target: null });
    expect(by.outgrew_median).toMatchObject({ n: 0, hits: 0, value: null });
    expect(by.flip_back).toMatchObject({
      n: 2,
      hits: 0,
      naive_n: 1,
      naive_hits: 0,
      value: 0,
      meets_target: true,
    });
    expect(by.changes_per_project_year).toMatchObject({
      n: 294,
      hits: 2,
      naive_hits: 1,
      value: 2.485,
      naive_value: 1.242,
      meets_target: false,
    });
  });

  it("replays a folder of best-of exports and JSON lines alike", async () => {
    const good = rows();
    const exports = path.join(dir, "history");
    await mkdir(exports);
    for (const date of DATES) {
      // an export has no snapshot_date (its name gives it) and a leading unnamed index column
      const those = good.filter((r) => r.snapshot_date === date);
      const columns = COLUMNS.filter((c) => c !== "snapshot_date");
      const body = those.map((r, i) => [String(i), ...columns.map((c) => csvCell(r[c]))].join(","));
      await writeFile(
        path.join(exports, `${date}_projects.csv`),
        `${["", ...columns].join(",")}\n${body.join("\n")}\n`,
      );
    }
    await writeFile(path.join(dir, "history.jsonl"), good.map((r) => JSON.stringify(r)).join("\n"));
    for (const source of [exports, path.join(dir, "history.jsonl")]) {
      const replay = await replayList(source);
      try {
        expect(replay.history.problems).toEqual([]);
        expect(await replayRows(replay.db)).toEqual(fromCsv);
      } finally {
        replay.db.close();
      }
    }
  }, 120_000);
});
