// The nightly collect with the REST phase (the github_rest source) against a 3,000-repository simulated world
// over real sockets: the star history of new repositories is served first, then raw_github_activity is
// loaded for as many repositories refreshed in full as the rest of github.restBudget reserves; the others
// are counted stale, and GraphQL figures are not disturbed. The sim's per-minute secondary limit is
// lifted here because tests do not wait (the production client waits out GitHub's retry-after).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { type CollectReport, collect } from "./collect.ts";
import { REST_REQUESTS_PER_REPO_MAX } from "./sources/github/activity.ts";
import { github } from "./sources/github/index.ts";
import { githubRest } from "./sources/github/rest-source.ts";

const START = "2026-03-01";
const REST_BUDGET = 4000;
let sim: SimServer;
let stateDir: string;
let db: Db;
const nights: { date: string; report: CollectReport; activity: number; full: number; starred: number }[] = [];

beforeAll(async () => {
  sim = await startSimServer({
    repos: 3000,
    seed: 21,
    date: START,
    port: 0,
    rest: { perMinute: 1_000_000, maxConcurrent: 1_000_000, corePerHour: 1_000_000 },
  });
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-collect-rest-"));
  db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  const config = loadConfig({
    overrides: {
      simUrl: sim.url,
      stateDir,
      github: { topics: [...TOPIC_VOCABULARY], restBudget: REST_BUDGET },
    },
  });
  for (let night = 0; night < 2; night++) {
    if (night > 0) await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const date = ((await (await fetch(`${sim.url}/_sim/clock`)).json()) as { date: string }).date;
    const report = await collect({
      config,
      db,
      logger: silentLogger,
      runDate: date,
      stateDir,
      sleep: async () => {},
      sources: [github, githubRest],
    });
    const [counts] = await db.all<{ activity: number; full: number; starred: number }>(
      "SELECT (SELECT count(*) FROM raw_github_activity WHERE run_date = ?::DATE AND (commit_weeks IS NOT NULL OR issues_sampled IS NOT NULL))::INTEGER AS activity, (SELECT count(*) FROM raw_github_repos WHERE run_date = ?::DATE AND refresh_tier = 'full')::INTEGER AS full, (SELECT count(DISTINCT node_id) FROM raw_github_stars WHERE run_date = ?::DATE)::INTEGER AS starred",
      [date, date, date],
    );
    nights.push({
      date,
      report,
      activity: counts?.activity ?? 0,
      full: counts?.full ?? 0,
      starred: counts?.starred ?? 0,
    });
  }
}, 300_000);
afterAll(async () => {
  db.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe("collect with the REST activity phase", () => {
  it("serves the star bootstrap first, then activity within what is left; the rest counted stale", () => {
    for (const [n, { report, activity, full, starred }] of nights.entries()) {
      expect(report.sources.map((s) => s.status)).toEqual(["ok", "ok"]);
      // Every repository is new on the first night: the bootstrap takes its share before activity.
      if (n === 0) expect(starred).toBeGreaterThan(0);
      expect(activity).toBeLessThanOrEqual(
        Math.min(full, Math.floor(REST_BUDGET / REST_REQUESTS_PER_REPO_MAX)),
      );
      expect(activity).toBeGreaterThan(0);
      expect(report.github_activity_stale).toBe(full - activity);
      expect(report.github_rest_requests).toBeLessThanOrEqual(REST_BUDGET);
      expect(report.repos_refreshed).toBe(report.sources[0]?.table_rows.raw_github_repos);
      console.info(
        `REST ${report.run_date}: tracked ${report.repos_total}, full ${full}, star histories ${starred}, activity rows ${activity}, REST requests ${report.github_rest_requests} (${(report.github_rest_requests / Math.max(1, activity)).toFixed(2)} per repository asked, ${(report.github_rest_requests / report.repos_total).toFixed(3)} per tracked), GraphQL points ${report.github_graphql_points}`,
      );
    }
  });
});
