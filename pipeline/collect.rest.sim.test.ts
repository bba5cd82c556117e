// The nightly collect with the REST phase (the github_rest source) against a 3,000-repository simulated world
// over real sockets: the star history of new repositories is served first, then raw_github_activity is
// loaded for as many repositories refreshed in full as the rest of github.restBudget pays for; the others
// are counted stale, and GraphQL figures are not disturbed. The sim's per-minute secondary limit is
// lifted here because tests do not wait (the production client waits out GitHub's retry-after).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../core/db.ts";
import type { CollectReport } from "./collect.ts";
import { openSimCollectWorld, type SimCollectWorld } from "./sim-collect.testing.ts";
import { SIM_TOKEN } from "./sources/github/client.ts";
import { github } from "./sources/github/index.ts";
import { githubRest } from "./sources/github/rest-source.ts";

const START = "2026-03-01";
const REST_BUDGET = 4000;
let world: SimCollectWorld;
let db: Db;
const nights: {
  date: string;
  report: CollectReport;
  activity: number;
  full: number;
  starred: number;
  /** REST requests GitHub (the simulator) charged that night: free 304s are not, as the budget counts them. */
  charged: number;
}[] = [];

beforeAll(async () => {
  world = await openSimCollectWorld({
    date: START,
    sim: { rest: { perMinute: 1_000_000, maxConcurrent: 1_000_000, corePerHour: 1_000_000 } },
    restBudget: REST_BUDGET,
  });
  db = world.db;
  for (let night = 0; night < 2; night++) {
    const { date, report } = await world.night([github, githubRest]);
    const [counts] = await db.all<{ activity: number; full: number; starred: number }>(
      "SELECT (SELECT count(*) FROM raw_github_activity WHERE run_date = ?::DATE AND (commit_weeks IS NOT NULL OR issues_sampled IS NOT NULL))::INTEGER AS activity, (SELECT count(*) FROM raw_github_repos WHERE run_date = ?::DATE AND refresh_tier = 'full')::INTEGER AS full, (SELECT count(DISTINCT node_id) FROM raw_github_stars WHERE run_date = ?::DATE)::INTEGER AS starred",
      [date, date, date],
    );
    // the simulator starts every token's hourly window afresh each simulated day, so this is the night's use
    const limits = (await (
      await fetch(`${world.sim.url}/github/rate_limit`, { headers: { authorization: `token ${SIM_TOKEN}` } })
    ).json()) as { resources: { core: { used: number } } };
    nights.push({
      charged: limits.resources.core.used,
      date,
      report,
      activity: counts?.activity ?? 0,
      full: counts?.full ?? 0,
      starred: counts?.starred ?? 0,
    });
  }
}, 300_000);
afterAll(() => world.close());

describe("collect with the REST activity phase", () => {
  it("serves the star bootstrap first, then activity within what is left; the rest counted stale", () => {
    for (const [n, { report, activity, full, starred, charged }] of nights.entries()) {
      expect(report.sources.map((s) => s.status)).toEqual(["ok", "ok"]);
      // Every repository is new on the first night: the bootstrap takes its share before activity.
      if (n === 0) expect(starred).toBeGreaterThan(0);
      // Spent in waves at what each repository cost, not its worst case: more than the worst case would fit can be
      // read, never more than the night's REST budget (below).
      expect(activity).toBeLessThanOrEqual(full);
      expect(activity).toBeGreaterThan(0);
      expect(report.github_activity_stale).toBe(full - activity);
      expect(charged).toBeLessThanOrEqual(REST_BUDGET);
      expect(report.repos_refreshed).toBe(report.sources[0]?.table_rows.raw_github_repos);
      console.info(
        `REST ${report.run_date}: tracked ${report.repos_total}, full ${full}, star histories ${starred}, activity rows ${activity}, REST requests ${report.github_rest_requests} (charged ${charged}; ${(report.github_rest_requests / Math.max(1, activity)).toFixed(2)} per repository asked, ${(report.github_rest_requests / report.repos_total).toFixed(3)} per tracked), GraphQL points ${report.github_graphql_points}`,
      );
    }
  });
});
