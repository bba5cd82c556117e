// The world evolves consistently: stars never fall by more than one a day, commits keep coming,
// counts stay coherent, and event instants (stars, commits, releases) agree with the counts.
import { describe, expect, it } from "vitest";
import { parseDay } from "./dates.ts";
import { recentDownloads } from "./downloads.ts";
import * as m from "./metrics.ts";
import { releasesAt } from "./releases.ts";
import { createWorld } from "./world.ts";

const NOW = parseDay("2026-01-15") as number;
const world = createWorld({ repos: 3000, seed: 1, anchor: "2026-01-15" });
const all = Array.from({ length: world.size }, (_, i) => i);
const sum = (f: (i: number) => number) => all.reduce((total, i) => total + f(i), 0);

describe("evolution over time", () => {
  it("grows stars and commits over a week, and new repositories appear", () => {
    expect(sum((i) => m.stars(world, i, NOW))).toBe(2_279_743);
    expect(sum((i) => m.stars(world, i, NOW + 7))).toBe(2_331_559);
    expect(sum((i) => m.commits(world, i, NOW + 7)) - sum((i) => m.commits(world, i, NOW))).toBe(11_737);
    expect(all.filter((i) => !m.exists(world, i, NOW) && m.exists(world, i, NOW + 7)).length).toBe(15);
  });

  it("never lets a repository lose more than one star from one day to the next", () => {
    let largestDrop = 0;
    for (const i of all) {
      for (let day = NOW - 30; day < NOW + 30; day++) {
        largestDrop = Math.max(largestDrop, m.stars(world, i, day) - m.stars(world, i, day + 1));
      }
    }
    expect(largestDrop).toBe(1);
  });

  it("keeps issue and pull request counts coherent and monotone in total", () => {
    for (let i = 0; i < world.size; i += 7) {
      const before = m.issueCounts(world, i, NOW);
      const after = m.issueCounts(world, i, NOW + 30);
      expect(before.open).toBeGreaterThanOrEqual(0);
      expect(after.open + after.closed).toBeGreaterThanOrEqual(before.open + before.closed);
      const prs = m.pullRequestCounts(world, i, NOW);
      expect(Math.min(prs.open, prs.merged, prs.closed)).toBeGreaterThanOrEqual(0);
    }
  });

  it("dates the k-th star, commit and release at the instant the count reaches k", () => {
    for (let i = 0; i < world.size; i += 97) {
      const stars = m.starsBase(world, i, NOW);
      if (stars > 0) {
        const at = m.starInstant(world, i, stars, NOW);
        expect(m.starsBase(world, i, at)).toBeGreaterThanOrEqual(stars);
        expect(m.starsBase(world, i, at - 2 / 86_400)).toBeLessThan(stars);
      }
      const commits = m.commits(world, i, NOW);
      if (commits > 1) {
        const at = m.commitInstant(world, i, commits, NOW);
        expect(at).toBeLessThanOrEqual(NOW);
        expect(m.commits(world, i, at - 2 / 86_400)).toBe(commits - 1);
      }
      const releases = releasesAt(world, i, NOW);
      if (releases.length > 0) {
        const at = m.releaseInstant(world, i, releases.length, NOW);
        expect(m.releaseCount(world, i, at)).toBe(releases.length);
      }
    }
  });

  it("stops commits once a repository is archived", () => {
    const archived = all.find((i) => m.isArchived(world, i, NOW)) as number;
    expect(m.commits(world, archived, NOW + 365)).toBe(m.commits(world, archived, NOW));
  });

  it("sums recent downloads over the last 1, 7 and 30 full days", () => {
    const index = all.find((i) => world.pypiName(i) && m.releaseCount(world, i, NOW - 40) > 0) as number;
    const recent = recentDownloads(world, index, NOW);
    expect(recent.last_week).toBeGreaterThanOrEqual(recent.last_day);
    expect(recent.last_month).toBeGreaterThan(recent.last_week);
  });
});
