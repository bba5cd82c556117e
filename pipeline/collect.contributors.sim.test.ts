// The weekly contributor rotation against a 3,000-repository simulated world over real sockets: seven nights of
// the github and github_rest sources with the demo's REST budget leave a contributor count, fetched within the
// week, for at least 95% of the tracked repositories with 100 stars or more; after the first burst the nightly
// rotation stays near a seventh of them. The sim's per-minute secondary limit is lifted because tests do not wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../core/db.ts";
import type { CollectReport } from "./collect.ts";
import { CONTRIBUTOR_MIN_STARS, CONTRIBUTOR_ROTATION_DAYS } from "./schedule/contributors.ts";
import { openSimCollectWorld, type SimCollectWorld } from "./sim-collect.testing.ts";
import { SIM_TOKEN } from "./sources/github/client.ts";
import { github } from "./sources/github/index.ts";
import { githubRest } from "./sources/github/rest-source.ts";

const START = "2026-03-01";
/** The demo's REST budget for a night (cli/options.ts DEMO_REST_BUDGET). */
const REST_BUDGET = 800;
let world: SimCollectWorld;
let db: Db;
const reports: CollectReport[] = [];
/** REST requests GitHub (the simulator) charged each night: free 304s are not, as the budget counts them. */
const charged: number[] = [];
/** Repositories whose count was fetched each night (rotation rows and full activity rows alike). */
const counted: number[] = [];

beforeAll(async () => {
  world = await openSimCollectWorld({
    date: START,
    sim: { rest: { perMinute: 1_000_000, maxConcurrent: 1_000_000, corePerHour: 1_000_000 } },
    restBudget: REST_BUDGET,
  });
  db = world.db;
  for (let night = 0; night < CONTRIBUTOR_ROTATION_DAYS; night++) {
    const { date, report } = await world.night([github, githubRest]);
    reports.push(report);
    // the simulator starts every token's hourly window afresh each simulated day, so this is the night's use
    const limits = (await (
      await fetch(`${world.sim.url}/github/rate_limit`, { headers: { authorization: `token ${SIM_TOKEN}` } })
    ).json()) as { resources: { core: { used: number } } };
    charged.push(limits.resources.core.used);
    const [row] = await db.all<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM raw_github_activity WHERE run_date = ?::DATE AND contributors IS NOT NULL",
      [date],
    );
    counted.push(row?.n ?? 0);
  }
}, 600_000);
afterAll(() => world.close());

describe("the weekly contributor rotation", () => {
  it("counts at least 95% of the repositories with 100+ stars within 7 nights, within the REST budget", async () => {
    const last = reports.at(-1)?.run_date as string;
    const [coverage] = await db.all<{ popular: number; known: number }>(
      `WITH popular AS (
         SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE AND stars >= ${CONTRIBUTOR_MIN_STARS}
       ),
       known AS (
         SELECT DISTINCT node_id FROM raw_github_activity
         WHERE contributors IS NOT NULL AND run_date > ?::DATE - ${CONTRIBUTOR_ROTATION_DAYS}
       )
       SELECT (SELECT count(*) FROM popular)::INTEGER AS popular,
              (SELECT count(*) FROM popular JOIN known USING (node_id))::INTEGER AS known`,
      [last, last],
    );
    const { popular, known } = coverage as { popular: number; known: number };
    console.info(
      `contributors: ${known} of ${popular} repositories with ${CONTRIBUTOR_MIN_STARS}+ stars counted within ${CONTRIBUTOR_ROTATION_DAYS} nights; counted per night ${counted.join(", ")}; REST requests per night ${reports.map((r) => r.github_rest_requests).join(", ")}, of which charged ${charged.join(", ")}`,
    );
    expect(popular).toBeGreaterThan(500);
    expect(known / popular).toBeGreaterThanOrEqual(0.95);
    for (const r of reports) expect(r.sources.map((s) => s.status)).toEqual(["ok", "ok"]);
    // the night never spends more than its budget, 304s (free on GitHub) not counted
    for (const used of charged) expect(used).toBeLessThanOrEqual(REST_BUDGET);
  });

  it("spreads the refresh after the first burst: no later night counts more than a third of them", async () => {
    const [row] = await db.all<{ popular: number }>(
      `SELECT count(*)::INTEGER AS popular FROM raw_github_repos WHERE run_date = ?::DATE AND stars >= ${CONTRIBUTOR_MIN_STARS}`,
      [reports.at(-1)?.run_date as string],
    );
    const popular = row?.popular ?? 0;
    expect(Math.max(...counted.slice(4))).toBeLessThan(popular / 3);
    expect(Math.min(...counted.slice(4))).toBeGreaterThan(0);
  });
});
