// The calibration set scored through the real score SQL: every archetype of data/calibration/profiles.json lands
// in the tier a knowledgeable user would give it (and in its score range where one is given).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { type CalibrationProfile, calibrationRow, readCalibration } from "./calibration.ts";
import { loadFeatRepos, runScoreSql, setScoreVariables } from "./testdata/score-harness.ts";

const RUN_DATE = "2026-11-20";
/** The archetypes the methodology names, so none can be dropped from the set unnoticed. */
const NAMED = {
  "flagship-framework": "verified",
  "midsize-library": "established",
  "finished-library": "established",
  "viral-single-maintainer": "emerging",
  "abandoned-hype": "experimental",
  "weekend-demo": "experimental",
} as const;

const UNKNOWN = "midsize-library-contributors-unknown";

interface Scored {
  node_id: string;
  quality_score: number;
  quality_tier: string;
}

describe("calibration set", () => {
  let db: Db;
  let profiles: CalibrationProfile[];
  let scored: Map<string, Scored>;
  beforeAll(async () => {
    profiles = readCalibration();
    db = await openDb(":memory:");
    await setScoreVariables(db, RUN_DATE);
    const midsize = profiles.find((p) => p.id === "midsize-library") as CalibrationProfile;
    // the same library before GitHub REST was asked for its contributors
    const unknown = { ...midsize, id: UNKNOWN, github: { ...midsize.github, contributors: null } };
    await loadFeatRepos(
      db,
      [...profiles, unknown].map((p) => calibrationRow(p, RUN_DATE)),
    );
    await runScoreSql(db);
    const rows = await db.all<Scored>("SELECT node_id, quality_score, quality_tier FROM score_quality");
    scored = new Map(rows.map((r) => [r.node_id, r]));
  });
  afterAll(() => db.close());

  it("holds at least 25 archetypes, the named ones among them, each tiered in all four tiers", () => {
    expect(profiles.length).toBeGreaterThanOrEqual(25);
    expect(Object.fromEntries(profiles.filter((p) => p.id in NAMED).map((p) => [p.id, p.tier]))).toEqual(
      NAMED,
    );
    expect(new Set(profiles.map((p) => p.id)).size).toBe(profiles.length);
    expect(new Set(profiles.map((p) => p.tier))).toEqual(
      new Set(["verified", "established", "emerging", "experimental"]),
    );
  });

  it("scores every archetype into its expected tier", () => {
    const got = profiles.map(
      (p) => `${p.id}: ${scored.get(p.id)?.quality_tier} (${scored.get(p.id)?.quality_score})`,
    );
    const want = profiles.map((p) => `${p.id}: ${p.tier} (${scored.get(p.id)?.quality_score})`);
    expect(got).toEqual(want);
  });

  it("scores every archetype with a range within it", () => {
    const outside = profiles
      .filter((p) => p.score)
      .map((p) => ({ id: p.id, range: p.score, score: scored.get(p.id)?.quality_score ?? -1 }))
      .filter(({ range, score }) => range && (score < range[0] || score > range[1]));
    expect(outside).toEqual([]);
  });

  it("treats the finished library as finished: its maintenance is raised to the floor", async () => {
    const [row] = await db.all(
      "SELECT is_finished, m_finished_floor > 0 AS floored FROM score_components WHERE node_id = 'finished-library'",
    );
    expect(row).toEqual({ is_finished: true, floored: true });
  });

  it("scores unknown contributors from every known input, shown as null and marked fallback, not as zero", async () => {
    const rows = await db.all<{ node_id: string; community: string }>(
      `SELECT node_id, json_extract(explanation, '$.community') AS community FROM score_explanations
       WHERE node_id IN ('midsize-library', '${UNKNOWN}') ORDER BY node_id`,
    );
    const [known, unknown] = rows.map((r) => JSON.parse(r.community));
    expect(known.inputs[0]).toEqual({ name: "contributors", value: 80, points: 6, fallback: false });
    // every known input of the library (all four components) earned about 78% of its points: 8 of the
    // contributors' 10, near the 6 its 80 contributors earn when counted, and no zero
    expect(unknown.inputs[0]).toEqual({ name: "contributors", value: null, points: 8, fallback: true });
    expect([known.points, unknown.points]).toEqual([16, 18]);
    expect(scored.get(UNKNOWN)?.quality_tier).toBe("established");
  });
});
