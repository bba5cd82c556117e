// Hacker News collect against the simulator over real sockets: every story of the last 30 days that links
// a tracked repository is found, with the points and comments the sim gives it at the run date.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storiesOf, storyAt } from "../../../sim/hn/stories.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { githubRepoOf } from "../pypi/names.ts";
import { rowsOf, runCollect, simRepoRefs, testContext } from "../testing.ts";
import { hackernews, LOOKBACK_DAYS } from "./index.ts";

const RUN_DATE = "2026-03-01";
const TODAY = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let stateDir: string;

beforeAll(async () => {
  sim = await startSimServer({ repos: 2000, seed: 11, date: RUN_DATE, port: 0 });
  stateDir = await mkdtemp(path.join(tmpdir(), "hn-sim-"));
});
afterAll(async () => {
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe("hackernews collect against the simulator", () => {
  it("keeps exactly the recent stories linking tracked repositories", async () => {
    const { world } = sim;
    const refs = simRepoRefs(world);
    const tracked = new Set(refs.map((r) => r.full_name.toLowerCase()));
    const index = storiesOf(world);
    const expected: Record<string, [string, number, number]> = {};
    index.times.forEach((t, p) => {
      if (t < TODAY - LOOKBACK_DAYS || t >= TODAY) return;
      const story = storyAt(world, index, p, TODAY);
      const repo = githubRepoOf(story.url);
      if (repo && tracked.has(repo)) expected[story.objectID] = [repo, story.points, story.num_comments];
    });
    expect(Object.keys(expected).length).toBeGreaterThan(3);

    const { ctx, quarantined } = testContext({
      stateDir,
      runDate: RUN_DATE,
      urls: { hackernews: `${sim.url}/hn` },
      repos: refs,
      simulated: true,
    });
    const items = await runCollect(hackernews, ctx);
    expect(items).toHaveLength(LOOKBACK_DAYS);
    const rows = rowsOf(items, "raw_hn_posts.");
    expect(
      Object.fromEntries(rows.map((r) => [r.object_id, [r.repo_full_name, r.points, r.num_comments]])),
    ).toEqual(expected);
    expect(quarantined).toEqual([]);
  });
});
