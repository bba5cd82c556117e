// Lifecycle stages over replayed simulated nights: every change of stage was confirmed by the nights before it (or
// is an archive), and no repository goes A -> B -> A within lifecycle_min_dwell_days except through an archive.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, statePaths } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { runNightly } from "../nightly/run.ts";
import { startSimServer } from "../sim/index.ts";
import { simClock } from "./sim-clock.ts";
import { closeDiscarded } from "./sim-collect.testing.ts";

const START = "2026-10-20";
const NIGHTS = 20;

describe("lifecycle over replayed nights", () => {
  let state: string;
  let db: Db;
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  let history: string;

  beforeAll(async () => {
    state = await mkdtemp(path.join(os.tmpdir(), "pis-lifecycle-"));
    sim = await startSimServer({
      repos: 400,
      seed: 11,
      date: START,
      anchor: START,
      port: 0,
      logger: silentLogger,
    });
    const config = loadConfig({
      env: {},
      overrides: {
        stateDir: state,
        simUrl: sim.url,
        // commit statistics asked again at once: the simulator computes them at once, and GitHub's 5-s pause before
        // asking again would only wait, once each of the 20 nights
        github: { tokens: ["lifecycle-test"], restBudget: 200, statsRetryMs: 0 },
      },
    });
    db = await openDb(statePaths(config).warehouse);
    history = statePaths(config).history;
    // collect and score each night (no release: publishing is not what is tested), then move the simulator a day on
    for (let night = 1; night <= NIGHTS; night++) {
      const runDate = await simClock(config, night > 1 ? 1 : undefined);
      const manifest = await runNightly({ config, db, logger: silentLogger, runDate, publish: false });
      expect([runDate, manifest.status]).toEqual([runDate, "ok"]);
    }
  }, 600_000);

  afterAll(async () => {
    if (db) await closeDiscarded(db);
    await sim?.close();
    await rm(state, { recursive: true, force: true });
  });

  /** Every night's candidates, from the history (the warehouse keeps only those a later night reads). */
  const candidates = () =>
    `read_parquet('${path.join(history, "lifecycle", "date=*", "data.parquet")}', hive_partitioning = true)`;

  it("records changes of stage, each confirmed by the same candidate on its last 3 nights or an archive", async () => {
    const [counts] = await db.all<{ changes: number; candidate_flips: number }>(
      `SELECT (SELECT count(*) FROM transitions WHERE from_stage IS NOT NULL) AS changes,
         (SELECT count(*) FROM (SELECT candidate_stage <> lag(candidate_stage) OVER w AS flip
           FROM ${candidates()} WINDOW w AS (PARTITION BY node_id ORDER BY date)) WHERE flip) AS candidate_flips`,
    );
    expect(counts?.changes).toBeGreaterThan(0);
    // a candidate that changes back and forth is published fewer times than it flips
    expect(counts?.changes).toBeLessThan(counts?.candidate_flips ?? 0);
    const unconfirmed = await db.all(
      `SELECT t.node_id, t.date, t.to_stage, list(c.candidate_stage ORDER BY c.date DESC)[1:3] AS last_candidates
       FROM transitions t
       JOIN ${candidates()} c ON c.node_id = t.node_id AND c.date <= t.date
       WHERE t.from_stage IS NOT NULL
       GROUP BY t.node_id, t.date, t.to_stage
       HAVING NOT bool_or(c.is_archived AND c.date = t.date)
         AND NOT (len(last_candidates) = 3 AND list_bool_and(list_transform(last_candidates, lambda s: s = t.to_stage)))
         AND NOT bool_or(c.is_archived AND c.date >= (SELECT max(p.date) FROM transitions p
           WHERE p.node_id = t.node_id AND p.date < t.date))`,
    );
    expect(unconfirmed).toEqual([]);
  });

  it("never goes A -> B -> A within 14 days except through an archive", async () => {
    const flaps = await db.all(
      `WITH t AS (
         SELECT node_id, date, from_stage, to_stage,
           lag(from_stage) OVER w AS earlier_from, lag(date) OVER w AS earlier_date
         FROM transitions WHERE from_stage IS NOT NULL
         WINDOW w AS (PARTITION BY node_id ORDER BY date)
       )
       SELECT t.node_id, t.earlier_date, t.date, t.to_stage
       FROM t
       WHERE t.to_stage = t.earlier_from AND t.date - t.earlier_date < 14
         AND NOT EXISTS (SELECT 1 FROM ${candidates()} c
           WHERE c.node_id = t.node_id AND c.is_archived AND c.date BETWEEN t.earlier_date AND t.date)`,
    );
    expect(flaps).toEqual([]);
  });
});
