// The contributor rotation: never-counted popular repositories first, then the oldest counts, each repository
// back within a week on its phase day, small ones and those counted tonight left out.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { CONTRIBUTOR_BUDGET_SHARE } from "../sources/github/contributors.ts";
import {
  type ContributorCandidate,
  contributorFloor,
  planContributors,
  simulateRotation,
} from "./contributors.ts";

const repos: ContributorCandidate[] = Array.from({ length: 700 }, (_, i) => ({
  node_id: `R_${String(i).padStart(4, "0")}`,
  full_name: `o/r${i}`,
  stars: i < 100 ? 50 : 100 + i,
}));
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("planContributors", () => {
  it("asks for every repository with 100+ stars never counted, most starred first", () => {
    const plan = planContributors(repos, new Map(), "2026-03-02");
    expect(plan.length).toBe(600);
    expect(plan.slice(0, 2).map((r) => r.node_id)).toEqual(["R_0699", "R_0698"]);
  });

  it("puts never-counted before due counts, and the oldest count first among those", () => {
    const last = new Map<string, string>([
      ["R_0650", "2026-02-20"],
      ["R_0651", "2026-02-22"],
    ]);
    const plan = planContributors(
      repos.filter((r) => ["R_0650", "R_0651", "R_0100"].includes(r.node_id)),
      last,
      "2026-03-02",
    );
    expect(plan.map((r) => r.node_id)).toEqual(["R_0100", "R_0650", "R_0651"]);
  });

  it("leaves out repositories counted tonight by the full activity", () => {
    const plan = planContributors(repos, new Map(), "2026-03-02", new Set(["R_0699"]));
    expect(plan.map((r) => r.node_id)).not.toContain("R_0699");
    expect(plan.length).toBe(599);
  });

  it("brings each counted repository back within 7 nights, about a seventh of them a night", () => {
    const last = new Map<string, string>(repos.map((r) => [r.node_id, "2026-03-01"]));
    const nightly: number[] = [];
    for (let day = 1; day <= 21; day++) {
      const date = addDays("2026-03-01", day);
      const plan = planContributors(repos, last, date);
      for (const r of plan) {
        const gap = (Date.parse(date) - Date.parse(last.get(r.node_id) as string)) / 86_400_000;
        expect(gap).toBeLessThanOrEqual(7);
        last.set(r.node_id, date);
      }
      nightly.push(plan.length);
    }
    for (const r of repos.slice(100)) expect((last.get(r.node_id) as string) >= "2026-03-16").toBe(true);
    const later = nightly.slice(7);
    expect(Math.max(...later)).toBeLessThan(130);
    expect(Math.min(...later)).toBeGreaterThan(50);
  });
});

describe("the rotation at 220,000 repositories", () => {
  // one shard of three: 73,929 repositories with 100+ stars at 220,000 (issue 21), a third each, and as many below
  const shard: ContributorCandidate[] = Array.from({ length: 2 * 24_643 }, (_, i) => ({
    node_id: `R_${String(i).padStart(6, "0")}`,
    full_name: `o/r${i}`,
    stars: i % 2 === 0 ? 100 + i : 10,
  }));
  const budget = loadConfig({ env: {} }).github.restBudget;

  it("claims enough a night within one token's default budget that 95% of counts are at most 14 days old", () => {
    const floor = contributorFloor(shard);
    expect([floor, budget]).toEqual([1896, 2700]);
    const perNight = Math.max(Math.floor(budget * CONTRIBUTOR_BUDGET_SHARE), floor);
    const run = simulateRotation(shard, perNight, 60, "2026-01-01");
    expect(run.requests.every((n) => n === 1896)).toBe(true);
    // the first 13 nights count the never-counted; from then on every count is at most 14 days old
    expect(run.fresh.findIndex((share) => share >= 0.95)).toBe(12);
    expect(Math.min(...run.fresh.slice(13))).toBe(1);
  });

  it("at the former half of 1,800 requests, 55% of them would be", () => {
    const run = simulateRotation(shard, Math.floor(1800 * CONTRIBUTOR_BUDGET_SHARE), 60, "2026-01-01");
    expect(Math.round(Math.min(...run.fresh.slice(30)) * 1000) / 1000).toBe(0.548);
  });
});
