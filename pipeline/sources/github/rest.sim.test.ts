// Contributor counts and commit activity over real sockets against the simulator's GitHub REST API:
// counts read from the Link header of one per_page=1 request, 202 answers asked again in later rounds,
// 204 for a repository without commits, conditional requests that come back 304 on the second night, and
// the star history of the last 30 days read from the end of the stargazer list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { repoJson } from "../../../sim/github/rest-json.ts";
import { contributorCount } from "../../../sim/github/rest-lists.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { commits, exists, stars, starsBase } from "../../../sim/metrics.ts";
import { createHttpClient, type HttpClient, memoryEtagStore } from "../../collect/http.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import { fetchCommitActivity, fetchContributorCount } from "./rest.ts";
import { createRestClient } from "./rest-client.ts";
import { fetchStarHistory, MAX_PAGES, STAR_HISTORY_DAYS, starListReachable } from "./stargazers.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let http: HttpClient;
const sleeps: number[] = [];
const quarantined: string[] = [];

beforeAll(async () => {
  sim = await startSimServer({ repos: 200, seed: 4, date: RUN_DATE, port: 0 });
  http = createHttpClient({ ...loadConfig().http, etags: memoryEtagStore(), sleep: async () => {} });
});
afterAll(async () => {
  http.close();
  await sim.close();
});

function context(): CollectContext {
  const config = loadConfig({ overrides: { simUrl: sim.url } });
  return {
    config,
    urls: sourceUrls(config),
    http,
    logger: silentLogger,
    clock: { now: () => new Date(`${RUN_DATE}T03:00:00Z`) },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    runDate: RUN_DATE,
    batches: undefined as never,
    repos: [],
    count() {},
    async quarantine(url) {
      quarantined.push(url);
    },
  };
}

const indexes = () =>
  Array.from({ length: sim.world.size }, (_, i) => i)
    .filter((i) => exists(sim.world, i, NOW))
    .slice(0, 40);
const nameOf = (i: number) => (repoJson(sim.world, i, NOW) as { full_name: string }).full_name;

describe("GitHub REST against the simulator", () => {
  it("counts contributors with one request each, from the Link header's last page", async () => {
    const ctx = context();
    const rest = createRestClient(ctx);
    const before = http.stats().bySource.github_rest?.requests ?? 0;
    for (const i of indexes()) {
      expect([i, await fetchContributorCount(ctx, rest, nameOf(i))]).toEqual([
        i,
        contributorCount(sim.world, i, NOW),
      ]);
    }
    expect((http.stats().bySource.github_rest?.requests ?? 0) - before).toBe(indexes().length);
    expect(await fetchContributorCount(ctx, rest, "nobody-here/nothing")).toBeNull();
  });

  it("reads the star count at the start of each of the last 30 days from the last stargazer pages", async () => {
    const ctx = context();
    const rest = createRestClient(ctx);
    let whole = 0;
    for (const i of indexes()) {
      const history = await fetchStarHistory(ctx, rest, nameOf(i));
      const listed = stars(sim.world, i, NOW);
      // GitHub lists at most 40,000 stargazers: past that the recent ones are out of reach, and no history is made
      if (!starListReachable(listed)) {
        expect([i, history]).toEqual([i, null]);
        continue;
      }
      expect([i, history?.listed]).toEqual([i, listed]);
      expect(history?.requests).toBeLessThanOrEqual(MAX_PAGES + 1);
      // The days reached are the most recent ones; each count is the world's at 00:00 UTC of that day.
      const reached = history?.days.length ?? 0;
      const expected = Array.from({ length: reached }, (_, n) => {
        const day = NOW - reached + n;
        return {
          day: new Date(day * 86_400_000).toISOString().slice(0, 10),
          stars: Math.min(listed, starsBase(sim.world, i, day)),
        };
      });
      expect([i, history?.days]).toEqual([i, expected]);
      if (reached === STAR_HISTORY_DAYS) whole++;
    }
    expect(whole).toBeGreaterThan(indexes().length / 2);
  });

  it("stops at the requests it is allowed, keeping the days the pages read reach", async () => {
    const ctx = context();
    const rest = createRestClient(ctx);
    // A repository gaining more than two pages of stars a month: three requests (page 1, then the last two)
    // reach only the recent days.
    const i = Array.from({ length: sim.world.size }, (_, j) => j).find(
      (j) =>
        exists(sim.world, j, NOW) &&
        starsBase(sim.world, j, NOW) - starsBase(sim.world, j, NOW - 30) > 200 &&
        starsBase(sim.world, j, NOW) < 40_000,
    );
    expect(i).toBeDefined();
    const history = await fetchStarHistory(ctx, rest, nameOf(i as number), 3);
    expect(history?.requests).toBe(3);
    const days = history?.days ?? [];
    expect(days.length).toBeGreaterThan(0);
    expect(days.length).toBeLessThan(STAR_HISTORY_DAYS);
    expect(days.at(-1)?.day).toBe("2026-02-28");
    for (const { day, stars: count } of days)
      expect([day, count]).toEqual([
        day,
        Math.min(
          stars(sim.world, i as number, NOW),
          starsBase(sim.world, i as number, Date.parse(day) / 86_400_000),
        ),
      ]);
  });

  it("asks again later for activity still computing (202), and reads 204 as no commits", async () => {
    const ctx = context();
    sleeps.length = 0;
    const names = indexes().map(nameOf);
    const activity = await fetchCommitActivity(ctx, createRestClient(ctx), names, 3, 5000);
    expect(sleeps).toEqual([5000]);
    for (const i of indexes()) {
      const got = activity.get(nameOf(i));
      if (commits(sim.world, i, NOW) === 0) expect(got).toEqual({ status: "empty" });
      else {
        expect(got?.status).toBe("ok");
        if (got?.status === "ok") expect(got.weeks).toHaveLength(52);
      }
    }
    // Asked again the same day, the answers are known and come back as 304 (free) from the ETag store.
    const notModified = http.stats().bySource.github_rest?.not_modified ?? 0;
    const again = await fetchCommitActivity(ctx, createRestClient(ctx), names, 3, 5000);
    expect([...again.values()].every((a) => a.status === "ok" || a.status === "empty")).toBe(true);
    expect((http.stats().bySource.github_rest?.not_modified ?? 0) - notModified).toBeGreaterThan(0);
    expect(quarantined).toEqual([]);
  });

  it("leaves activity pending when GitHub is still computing after the last round", async () => {
    const ctx = context();
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const name = nameOf(indexes().find((i) => commits(sim.world, i, NOW) > 0) ?? 0);
    const activity = await fetchCommitActivity(ctx, createRestClient(ctx), [name], 0, 5000);
    expect(activity.get(name)).toEqual({ status: "pending" });
  });
});
