// Lifecycle stages and transitions on hand-made nights, with exact expected stages: hysteresis, the nights a change
// waits to be confirmed, the dwell before a change back, archiving at once, the finished-project rule.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isoDay } from "../core/clock.ts";
import { type Db, openDb } from "../core/db.ts";
import {
  CANDIDATE_NIGHTS,
  ensureRawTables,
  retainCandidates,
  runTransform,
  setScoreVariables,
} from "./score.ts";

const RUN = "2026-11-20";
const DAY_MS = 86_400_000;
/** The day `n` days before (negative: after) `from`. */
const ago = (n: number, from = RUN) => isoDay(new Date(Date.parse(from) - n * DAY_MS));

interface Night {
  stars?: number;
  /** The 30-day star window; null when unknown (a gap in the nights). */
  stars30?: number | null;
  growth30?: number | null;
  sinceCommit?: number;
  commits30?: number;
  commits90?: number;
  commits365?: number;
  archived?: boolean;
  finished?: boolean;
  quality?: number;
  age?: number;
}

/** The inputs score_lifecycle reads, by hand, for one night (one row per repository); its stages and candidates. */
async function night(db: Db, runDate: string, repos: Record<string, Night>, retain = true) {
  await setScoreVariables(db, runDate);
  await db.run(`CREATE OR REPLACE TABLE feat_repos (node_id VARCHAR, full_name VARCHAR, is_archived BOOLEAN,
    stars INTEGER, commits_30d INTEGER, commits_90d INTEGER, commits_365d INTEGER, created_at TIMESTAMP,
    last_commit_at TIMESTAMP, pushed_at TIMESTAMP)`);
  await db.run(
    "CREATE OR REPLACE TABLE feat_stars (node_id VARCHAR, stars_30d_delta BIGINT, growth_30d_pct DOUBLE)",
  );
  await db.run("CREATE OR REPLACE TABLE score_quality (node_id VARCHAR, quality_score INTEGER)");
  await db.run("CREATE OR REPLACE TABLE score_components (node_id VARCHAR, is_finished BOOLEAN)");
  for (const [node, r] of Object.entries(repos)) {
    await db.run(
      "INSERT INTO feat_repos VALUES ($1, 'o/' || $1, $2, $3, $4, $5, $6, $7::TIMESTAMP, $8::TIMESTAMP, NULL)",
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
    await db.run("INSERT INTO feat_stars VALUES ($1, $2, $3)", [
      node,
      r.stars30 === undefined ? 40 : r.stars30,
      r.growth30 === undefined ? 2 : r.growth30,
    ]);
    await db.run("INSERT INTO score_quality VALUES ($1, $2)", [node, r.quality ?? 50]);
    await db.run("INSERT INTO score_components VALUES ($1, $2)", [node, r.finished ?? false]);
  }
  for (const table of ["score_lifecycle", "transitions", "lifecycle_candidates"])
    await runTransform(db, table);
  // as score() does after each night's candidates
  if (retain) await retainCandidates(db);
  const rows = await db.all<{ node_id: string; lifecycle_stage: string }>(
    "SELECT node_id, lifecycle_stage FROM score_lifecycle ORDER BY node_id",
  );
  return Object.fromEntries(rows.map((r) => [r.node_id, r.lifecycle_stage]));
}

/** Runs one night per plan, `every` days apart, the last on RUN; the stages of each night. */
async function nights(db: Db, plans: Array<Record<string, Night>>, retain = true, every = 1) {
  const stages: Array<Record<string, string>> = [];
  for (const [i, plan] of plans.entries())
    stages.push(await night(db, ago((plans.length - 1 - i) * every), plan, retain));
  return stages;
}

/** The transitions recorded, as [node, night number (1 = the first of `total` nights), from, to]. */
async function transitions(db: Db, total: number) {
  const rows = await db.all<{ node_id: string; date: Date; from_stage: string | null; to_stage: string }>(
    "SELECT node_id, date, from_stage, to_stage FROM transitions ORDER BY date, node_id",
  );
  const first = Date.parse(ago(total - 1));
  return rows.map((r) => [r.node_id, (r.date.getTime() - first) / DAY_MS + 1, r.from_stage, r.to_stage]);
}

const repeat = <T>(times: number, value: T): T[] => Array.from({ length: times }, () => value);

describe("score_lifecycle and transitions", () => {
  let db: Db;
  beforeEach(async () => {
    db = await openDb(":memory:");
    await ensureRawTables(db);
  });
  afterEach(() => db.close());

  it("does not flap when a star count oscillates around the growing threshold", async () => {
    // an active repository below established (quality 50, 300 stars) gaining 32 / 28 stars a month on
    // alternate nights: 30 are needed to enter growing, so the candidate stage alternates and never holds
    const young = { stars: 300, growth30: 15, quality: 50 };
    const plans = Array.from({ length: 12 }, (_, i) => ({ E: { ...young, stars30: i % 2 === 0 ? 28 : 32 } }));
    const stages = await nights(db, plans);
    expect(stages.map((s) => s.E)).toEqual(repeat(12, "emerging"));
    expect(await transitions(db, 12)).toEqual([["E", 1, null, "emerging"]]);
  });

  it("keeps a growing repository growing while it gains at least growing_exit_stars_30d", async () => {
    // enters growing on the third night of 40 stars a month, then 25 / 21 a month stays above the exit level (20)
    const young = { stars: 300, growth30: 15, quality: 50 };
    const gains = [10, 40, 40, 40, 25, 21, 25, 21, 25, 21];
    const stages = await nights(
      db,
      gains.map((stars30) => ({ E: { ...young, stars30 } })),
    );
    expect(stages.map((s) => s.E)).toEqual(["emerging", "emerging", "emerging", ...repeat(7, "growing")]);
    expect(await transitions(db, 10)).toEqual([
      ["E", 1, null, "emerging"],
      ["E", 4, "emerging", "growing"],
    ]);
  });

  it("changes stage once a sustained move has held lifecycle_confirm_days days (the third daily night)", async () => {
    const young = { stars: 300, growth30: 15, quality: 50 };
    const plans = [10, 10, 60, 60, 60, 60, 60, 60].map((stars30) => ({ E: { ...young, stars30 } }));
    const stages = await nights(db, plans);
    expect(stages.map((s) => s.E)).toEqual([...repeat(4, "emerging"), ...repeat(4, "growing")]);
    expect(await transitions(db, 8)).toEqual([
      ["E", 1, null, "emerging"],
      ["E", 5, "emerging", "growing"],
    ]);
    expect(await db.all("SELECT lifecycle_since FROM score_lifecycle")).toEqual([
      { lifecycle_since: new Date(`${ago(3)}T00:00:00Z`) },
    ]);
  });

  it("confirms in days, not nights: nights a week apart change stage on the second night of the move", async () => {
    // a list recorded weekly (or nights that failed): the move to growing is the candidate on nights 2 and 3, 7
    // days apart, more than lifecycle_confirm_days; counted in nights it would wait for night 4
    const young = { stars: 300, growth30: 15, quality: 50 };
    const plans = [10, 60, 60, 60].map((stars30) => ({ E: { ...young, stars30 } }));
    const stages = await nights(db, plans, true, 7);
    expect(stages.map((s) => s.E)).toEqual(["emerging", "emerging", "growing", "growing"]);
    expect(
      await db.all("SELECT date::VARCHAR AS date, from_stage, to_stage FROM transitions ORDER BY date"),
    ).toEqual([
      { date: ago(21), from_stage: null, to_stage: "emerging" },
      { date: ago(7), from_stage: "emerging", to_stage: "growing" },
    ]);
  });

  it("goes back to the stage just left only more than lifecycle_min_dwell_days after the change", async () => {
    // nights a week apart: growing from night 3 (day 15); the gains stop on night 4, so emerging is the candidate from
    // then on, but the change back waits until night 12 (day 78), more than 56 days after night 3
    const young = { stars: 300, growth30: 15, quality: 50 };
    const gains = [0, 60, 60, ...repeat(9, 0)];
    const stages = await nights(
      db,
      gains.map((stars30) => ({ E: { ...young, stars30 } })),
      true,
      7,
    );
    expect(stages.map((s) => s.E)).toEqual(["emerging", "emerging", ...repeat(9, "growing"), "emerging"]);
    expect(await transitions(db, 78)).toEqual([
      ["E", 1, null, "emerging"],
      ["E", 15, "emerging", "growing"],
      ["E", 78, "growing", "emerging"],
    ]);
  });

  it("reads a quarter that holds a commit as a pause, and an unknown star window as unknown, not as no gain", async () => {
    // R: 40 commits in the year, 2 in 90 days (activity 0.2, below fading_enter_activity) but a commit 30 days ago:
    //    alive, so established (by the ratio alone it was fading); Q: the same ratio, its last commit 70 days ago:
    //    still within fading_quiet_days, established; P: the same year, none in 90 days, its last commit 95 days ago: fading
    // G: growing from night 5 (60 stars a month from night 3), then its star window unknown for 18 nights (a gap in a list's
    //    snapshots): still growing (read as no gain it went back to established once the dwell had passed)
    const quiet = { commits30: 0, commits90: 2, commits365: 40 };
    const growing = { stars: 300, stars30: 60, growth30: 25, quality: 50, age: 1000 };
    const plans = Array.from(
      { length: 24 },
      (_, i): Record<string, Night> => ({
        R: { ...quiet, sinceCommit: 30 },
        Q: { ...quiet, sinceCommit: 70 },
        P: { ...quiet, commits90: 0, sinceCommit: 95 },
        G:
          i < 2
            ? { ...growing, stars30: 5, growth30: 1 }
            : i < 6
              ? growing
              : { ...growing, stars30: null, growth30: null },
      }),
    );
    const stages = await nights(db, plans);
    expect(stages.at(-1)).toEqual({ G: "growing", P: "fading", Q: "established", R: "established" });
    expect(await transitions(db, 24)).toEqual([
      ["G", 1, null, "emerging"],
      ["P", 1, null, "fading"],
      ["Q", 1, null, "established"],
      ["R", 1, null, "established"],
      ["G", 5, "emerging", "growing"],
    ]);
  });

  it("moves to dormant the night a repository is archived, and out of it the night it is unarchived", async () => {
    const plans = [
      { A: {} },
      { A: { archived: true } },
      { A: { archived: true } },
      { A: { archived: false, commits30: 5 } },
      { A: { archived: false, commits30: 5 } },
    ];
    const stages = await nights(db, plans);
    expect(stages.map((s) => s.A)).toEqual([
      "established",
      "dormant",
      "dormant",
      "established",
      "established",
    ]);
    expect(await transitions(db, 5)).toEqual([
      ["A", 1, null, "established"],
      ["A", 2, "established", "dormant"],
      ["A", 4, "dormant", "established"],
    ]);
  });

  it("stages with hysteresis: fading, dormant exit, launching, the finished-project rule (each plan held 7 nights)", async () => {
    // G: growth around the growing thresholds (enter at 10%, stay from 5%)
    // F: commits stop (fading after 150 days), one commit 50 days ago is not enough to leave (within 60 days AND
    //    activity back to half its yearly pace); a busy month would be, but the dwell (56 days) holds it past night 28
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
        F: { sinceCommit: 160, commits30: 0, commits90: 0 },
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
    const stages = await nights(
      db,
      plans.flatMap((plan) => repeat(7, plan)),
    );
    expect([1, 9, 10, 14, 15, 23, 24, 25].map((n) => stages[n - 1])).toEqual([
      { D: "dormant", F: "established", G: "established", L: "emerging", X: "established" },
      { D: "dormant", F: "established", G: "established", L: "emerging", X: "established" },
      { D: "dormant", F: "fading", G: "growing", L: "launching", X: "established" },
      { D: "dormant", F: "fading", G: "growing", L: "launching", X: "established" },
      { D: "established", F: "fading", G: "growing", L: "launching", X: "established" },
      { D: "established", F: "fading", G: "growing", L: "launching", X: "established" },
      // L moves on after 3 nights; F and G would go back to the stage they left on night 10, but only after 56 days
      { D: "established", F: "fading", G: "growing", L: "growing", X: "established" },
      { D: "established", F: "fading", G: "growing", L: "growing", X: "established" },
    ]);
    expect(await transitions(db, 28)).toEqual([
      ["D", 1, null, "dormant"],
      ["F", 1, null, "established"],
      ["G", 1, null, "established"],
      ["L", 1, null, "emerging"],
      ["X", 1, null, "established"],
      ["F", 10, "established", "fading"],
      ["G", 10, "established", "growing"],
      ["L", 10, "emerging", "launching"],
      ["D", 15, "dormant", "established"],
      ["L", 24, "launching", "growing"],
    ]);
    // running the last night again changes nothing
    await night(db, RUN, plans[3] as Record<string, Night>);
    expect(await db.all("SELECT count(*) AS n FROM transitions")).toEqual([{ n: 10 }]);
    expect(
      await db.all(
        "SELECT node_id, lifecycle_since FROM score_lifecycle WHERE node_id IN ('X', 'D') ORDER BY 1",
      ),
    ).toEqual([
      { node_id: "D", lifecycle_since: new Date(`${ago(13)}T00:00:00Z`) },
      { node_id: "X", lifecycle_since: new Date(`${ago(27)}T00:00:00Z`) },
    ]);
  });

  it("keeps of the older nights' candidates only what a later night reads: the stages come out the same", async () => {
    // S: steady. C: its candidate flips every few nights, so it never changes. A: dormant from the start, archived
    // on nights 11 to 14 (no change: it was dormant), active again from night 31, which it becomes at once (archived
    // since its last change). M: a fading candidate on nights 19 and 20, missing for 12 nights, fading again on night
    // 33, where the two before the gap confirm it. Over 40 nights, with and without the retention.
    const active = { sinceCommit: 1, commits30: 20 };
    const idle = { sinceCommit: 200, commits30: 0 };
    const plans = Array.from({ length: 40 }, (_, i): Record<string, Night> => {
      const plan: Record<string, Night> = {
        S: active,
        C: i % 5 < 3 ? active : idle,
        A: i < 30 ? { sinceCommit: 400, commits30: 0, archived: i >= 10 && i < 14 } : active,
      };
      if (i < 20 || i >= 32) plan.M = i >= 18 ? idle : active;
      return plan;
    });
    const whole = await openDb(":memory:");
    try {
      await ensureRawTables(whole);
      const kept = await nights(db, plans);
      expect(kept).toEqual(await nights(whole, plans, false));
      expect(await transitions(db, 40)).toEqual(await transitions(whole, 40));
      expect((await transitions(db, 40)).filter((t) => t[2] !== null)).toEqual([
        ["A", 31, "dormant", "established"],
        ["M", 33, "established", "fading"],
      ]);
      // the last CANDIDATE_NIGHTS nights whole; before them each repository's latest 3 rows and latest 3 archived
      // ones (A's, nights 12 to 14), the rest gone: 4 repositories x 7 nights + A's 3 archived nights
      const rows = await db.all<{ n: number; archived: number }>(
        "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE is_archived)::INTEGER AS archived FROM lifecycle_candidates",
      );
      expect(rows).toEqual([{ n: 4 * CANDIDATE_NIGHTS + 3, archived: 3 }]);
      // a re-score of each of the nights the retention keeps whole reads what the first run read
      for (let back = 4; back >= 0; back--) {
        const date = ago(back);
        const plan = plans[39 - back] as Record<string, Night>;
        expect([date, await night(db, date, plan)]).toEqual([date, kept[39 - back]]);
      }
    } finally {
      whole.close();
    }
  });
});
