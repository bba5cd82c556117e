// GitHub GraphQL cost of daily refreshes against the simulator, which charges points the way GitHub does:
// the first night refreshes every repository in full; after that the tiered plan keeps the details cost
// under 0.05 points per repository per night, every repository is refreshed every night (light or full)
// and none goes longer than coldDays without a full refresh.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../core/db.ts";
import type { CollectReport } from "./collect.ts";
import { openSimCollectWorld, type SimCollectWorld } from "./sim-collect.testing.ts";
import { github } from "./sources/github/index.ts";

const START = "2026-03-01";
const NIGHTS = 9;
let world: SimCollectWorld;
let db: Db;
const nights: { date: string; report: CollectReport; full: number; light: number; oldest: number }[] = [];

beforeAll(async () => {
  // More renames and deletions than the default world, so that some fall within these nine nights.
  world = await openSimCollectWorld({ date: START, sim: { renameShare: 0.2, deleteShare: 0.1 } });
  db = world.db;
  for (let night = 0; night < NIGHTS; night++) {
    const { date, report } = await world.night([github]);
    const [tiers] = await db.all<{ full: number; light: number; oldest: number }>(
      "SELECT count(*) FILTER (WHERE refresh_tier = 'full')::INTEGER AS full, count(*) FILTER (WHERE refresh_tier = 'light')::INTEGER AS light, max(run_date - details_as_of)::INTEGER AS oldest FROM raw_github_repos WHERE run_date = ?::DATE",
      [date],
    );
    nights.push({
      date,
      report,
      full: tiers?.full ?? 0,
      light: tiers?.light ?? 0,
      oldest: tiers?.oldest ?? 0,
    });
  }
}, 300_000);
afterAll(() => world.close());

const detailsPoints = (r: CollectReport) => r.github_graphql_points - r.github_graphql_points_discovery;

describe("renamed and deleted repositories", () => {
  it("follows a rename under the same node id, never as a second repository", async () => {
    const renamed = await db.all<{ node_id: string; names: number }>(
      "SELECT node_id, count(DISTINCT full_name)::INTEGER AS names FROM raw_github_repos GROUP BY node_id HAVING count(DISTINCT full_name) > 1",
    );
    expect(renamed.length).toBeGreaterThan(0);
    const duplicates = await db.all(
      "SELECT run_date, lower(full_name) AS name FROM raw_github_repos GROUP BY ALL HAVING count(*) > 1",
    );
    expect(duplicates).toEqual([]);
  });

  it("counts a deleted repository as skipped, and every tracked one as refreshed, stale or gone", () => {
    const skipped = nights.reduce((n, x) => n + (x.report.sources[0]?.skipped ?? 0), 0);
    expect(skipped).toBeGreaterThan(0);
    for (const { report } of nights) {
      expect(report.repos_refreshed + report.repos_stale + (report.sources[0]?.skipped ?? 0)).toBe(
        report.repos_total,
      );
    }
  });
});

describe("daily GitHub refresh cost", () => {
  it("refreshes every tracked repository every night, in full at least once a week", () => {
    for (const night of nights) {
      expect(night.report.sources[0]?.status).toBe("ok");
      expect(night.full + night.light).toBe(night.report.repos_refreshed);
      expect(night.report.repos_stale).toBe(0);
      expect(night.oldest).toBeLessThan(7);
    }
    expect(nights[0]?.light).toBe(0);
  });

  it("spends at most 0.05 points per repository per night on details after the first night", () => {
    const later = nights.slice(1);
    const points = later.reduce((n, x) => n + detailsPoints(x.report), 0);
    const repos = later.reduce((n, x) => n + x.report.repos_total, 0);
    const perRepo = points / repos;
    expect(perRepo).toBeLessThanOrEqual(0.05);
    // The first night pays the full query for everyone: about 9 points per 100.
    expect(
      detailsPoints(nights[0]?.report as CollectReport) / (nights[0]?.report.repos_total ?? 1),
    ).toBeGreaterThan(0.05);
  });
});
