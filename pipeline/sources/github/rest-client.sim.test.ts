// The REST client against the simulator's secondary limit (requests per minute per token), on a fake clock
// shared by the client, the HTTP layer and the sim: paced under the limit it is never refused; paced over it,
// the sim's 403 with retry-after is waited out and asked again, and the answers are still exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { contributorCount } from "../../../sim/github/rest-lists.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { exists } from "../../../sim/metrics.ts";
import { createHttpClient, type HttpClient } from "../../collect/http.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import { fetchContributorCount } from "./rest.ts";
import { createRestClient, REST_SOURCE } from "./rest-client.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
const PER_MINUTE = 30;
let sim: SimServer;
/** Fake wall clock in ms: moves only when someone sleeps. */
let wall = Date.parse(`${RUN_DATE}T04:00:00Z`);
const sleeps: number[] = [];
const sleep = async (ms: number) => {
  sleeps.push(ms);
  wall += ms;
};

beforeAll(async () => {
  sim = await startSimServer({
    repos: 200,
    seed: 4,
    date: RUN_DATE,
    port: 0,
    rest: { perMinute: PER_MINUTE },
    wallClock: () => wall,
  });
});
afterAll(async () => {
  await sim.close();
});

function context(http: HttpClient): CollectContext {
  const config = loadConfig({ overrides: { simUrl: sim.url } });
  return {
    config,
    urls: sourceUrls(config),
    http,
    logger: silentLogger,
    clock: { now: () => new Date(wall) },
    sleep,
    runDate: RUN_DATE,
    batches: undefined as never,
    repos: [],
    count() {},
    async quarantine(url) {
      throw new Error(`unexpected quarantine of ${url}`);
    },
  };
}

const living = () =>
  Array.from({ length: sim.world.size }, (_, i) => i)
    .filter((i) => exists(sim.world, i, NOW))
    .slice(0, 70);

/** Counts contributors of 70 repositories one after the other; returns the HTTP client's REST tallies. */
async function countAll(perMinute: number) {
  const http = createHttpClient({ ...loadConfig().http, sleep, clock: { now: () => new Date(wall) } });
  try {
    const ctx = context(http);
    const rest = createRestClient(ctx, { perMinute, concurrent: 100 });
    for (const i of living()) {
      expect([i, await fetchContributorCount(ctx, rest, sim.world.fullNameAt(i, NOW))]).toEqual([
        i,
        contributorCount(sim.world, i, NOW),
      ]);
    }
    return http.stats().bySource[REST_SOURCE];
  } finally {
    http.close();
  }
}

describe("REST pacing under the secondary limit", () => {
  it("paced at the limit, sends bursts of a minute's worth and is never refused", async () => {
    wall += 3_600_000;
    sleeps.length = 0;
    const tally = await countAll(PER_MINUTE);
    expect(tally).toEqual({ requests: 70, not_modified: 0, retries: 0 });
    // 70 requests at 30 a minute: two waits for the window to slide.
    expect(sleeps).toEqual([60_000, 60_000]);
  });

  it("paced over it, waits out the sim's 403 retry-after and asks again, with the same answers", async () => {
    wall += 3_600_000;
    sleeps.length = 0;
    const tally = await countAll(900);
    // Refused after 30 in a minute, twice; each refusal waits the 60 s the sim asks for, then succeeds.
    expect(tally).toEqual({ requests: 72, not_modified: 0, retries: 2 });
    expect(sleeps).toEqual([60_000, 60_000]);
  });
});
