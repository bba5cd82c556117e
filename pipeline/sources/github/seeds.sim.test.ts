// Seed repositories resolved against the simulator's GraphQL API: found by name (any case, URL or not),
// unknown names skipped and counted, one point per 50 names, and a resumed run asks nothing again.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { repoJson } from "../../../sim/github/rest-json.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { exists } from "../../../sim/metrics.ts";
import { openBatchStore } from "../../collect/batches.ts";
import { createHttpClient, type HttpClient } from "../../collect/http.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import { createGithubClient } from "./client.ts";
import { parseSeeds, readLinkedSeeds, resolveSeeds, SEEDS_PER_QUERY, writeLinkedSeeds } from "./seeds.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let http: HttpClient;
let stateDir: string;

beforeAll(async () => {
  sim = await startSimServer({ repos: 200, seed: 8, date: RUN_DATE, port: 0 });
  http = createHttpClient({ ...loadConfig().http, sleep: async () => {} });
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-seeds-"));
});
afterAll(async () => {
  http.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

function context(counts: Record<string, number>): CollectContext {
  const config = loadConfig({ overrides: { simUrl: sim.url, stateDir } });
  return {
    config,
    urls: sourceUrls(config),
    http,
    logger: silentLogger,
    clock: { now: () => new Date(`${RUN_DATE}T03:00:00Z`) },
    sleep: async () => {},
    runDate: RUN_DATE,
    batches: openBatchStore(stateDir, RUN_DATE),
    repos: [],
    count(what, n = 1) {
      counts[what] = (counts[what] ?? 0) + n;
    },
    async quarantine() {},
  };
}

describe("parseSeeds", () => {
  it("reads owner/name lines and GitHub URLs, ignoring comments and blanks, de-duplicated", () => {
    expect(
      parseSeeds(
        "# seeds\nA/B\n\nhttps://github.com/a/b.git\nc/d.e # note\nnot a name\nhttps://github.com/x/y/\n",
      ),
    ).toEqual(["a/b", "c/d.e", "x/y"]);
  });
});

describe("resolveSeeds against the simulator", () => {
  it("finds the known names, skips the unknown ones, one point per 50 names", async () => {
    const living = Array.from({ length: sim.world.size }, (_, i) => i).filter((i) =>
      exists(sim.world, i, NOW),
    );
    const known = living
      .slice(0, 60)
      .map((i) => repoJson(sim.world, i, NOW) as { full_name: string; node_id: string });
    const names = parseSeeds(
      [...known.map((r) => r.full_name.toUpperCase()), "nobody/nothing-here"].join("\n"),
    );
    const counts: Record<string, number> = {};
    const ctx = context(counts);
    const client = createGithubClient({
      http,
      url: ctx.urls.githubGraphql,
      tokens: ["sim"],
      clock: ctx.clock,
      sleep: ctx.sleep,
      maxRetryWaitMs: 1000,
      logger: silentLogger,
      onPoints: (p) => ctx.count("graphql_points", p),
    });
    const found = new Map<string, string>();
    for await (const item of resolveSeeds(ctx, client, names, found)) {
      if ("rows" in item) await ctx.batches.write("github", item.id, item.rows);
    }
    expect(new Map([...found].sort())).toEqual(
      new Map(known.map((r) => [r.node_id, r.full_name] as const).sort()),
    );
    expect(counts).toEqual({ skipped: 1, graphql_points: Math.ceil(names.length / SEEDS_PER_QUERY) });

    const again = new Map<string, string>();
    const requests = http.stats().bySource.github?.requests ?? 0;
    const items: string[] = [];
    for await (const item of resolveSeeds(context({}), client, names, again))
      items.push("resumed" in item ? "resumed" : "fetched");
    expect(items).toEqual(["resumed", "resumed"]);
    expect(again).toEqual(found);
    expect(http.stats().bySource.github?.requests).toBe(requests);
  });
});

describe("linked seeds", () => {
  it("reads the names other sources linked in the last week, not today's or older ones", async () => {
    const at = (runDate: string) => ({ ...context({}), runDate });
    await writeLinkedSeeds(at("2026-02-20"), "pypi", "b0", ["old/one"]);
    await writeLinkedSeeds(at("2026-02-25"), "pypi", "b0", ["a/b", "A/B"]);
    await writeLinkedSeeds(at("2026-02-28"), "npm", "b1", ["c/d"]);
    await writeLinkedSeeds(at("2026-03-01"), "pypi", "b0", ["today/only"]);
    expect((await readLinkedSeeds(at("2026-03-01"))).sort()).toEqual(["a/b", "c/d"]);
  });
});
