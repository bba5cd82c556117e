// Which repositories a night's REST budget reads the activity of: the stalest first, so that over nights every
// repository refreshed in full gets its commit weeks and issue responsiveness, not the same first few every night.
import { describe, expect, it } from "vitest";
import { planActivity, REST_REQUESTS_PER_REPO_MAX, type RepoChunk } from "./activity.ts";

const repo = (id: string, stars: number) => ({ node_id: id, full_name: `o/${id}`, stars });
const chunks: RepoChunk[] = [
  { k: 0, repos: [repo("a", 10), repo("b", 500), repo("c", 20)] },
  { k: 1, repos: [repo("d", 9000), repo("e", 30), repo("f", 40)] },
];
const ids = (plan: ReturnType<typeof planActivity>) => plan.fits.map((repos) => repos.map((r) => r.node_id));

describe("planActivity", () => {
  it("reads the never-read first, the most starred of them first, then the oldest reading", () => {
    const lastRead = new Map([
      ["d", "2026-11-20"],
      ["b", "2026-11-27"],
      ["c", "2026-11-10"],
    ]);
    const plan = planActivity(chunks, 4 * REST_REQUESTS_PER_REPO_MAX, lastRead);
    // never read: f (40 stars), e (30), a (10); then the oldest reading: c (11-10) before d (11-20) and b (11-27)
    expect(ids(plan)).toEqual([
      ["a", "c"],
      ["e", "f"],
    ]);
    expect(plan.reserved).toBe(4 * REST_REQUESTS_PER_REPO_MAX);
  });

  it("on the next night, with those four read, reads the two left before any again", () => {
    const lastRead = new Map([
      ["a", "2026-11-28"],
      ["c", "2026-11-28"],
      ["e", "2026-11-28"],
      ["f", "2026-11-28"],
      ["d", "2026-11-20"],
      ["b", "2026-11-27"],
    ]);
    expect(ids(planActivity(chunks, 3 * REST_REQUESTS_PER_REPO_MAX + 5, lastRead))).toEqual([
      ["b"],
      ["d", "f"],
    ]);
  });

  it("without history reads the most starred, and a budget under one repository's share reads none", () => {
    expect(ids(planActivity(chunks, 2 * REST_REQUESTS_PER_REPO_MAX))).toEqual([["b"], ["d"]]);
    const none = planActivity(chunks, REST_REQUESTS_PER_REPO_MAX - 1);
    expect([ids(none), none.covered.size, none.reserved]).toEqual([[[], []], 0, 0]);
  });
});
