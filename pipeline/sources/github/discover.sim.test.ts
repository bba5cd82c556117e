// Keyword discovery against the simulator's GraphQL search over real sockets: a phrase searched in names and
// descriptions finds the repositories that say it without carrying the topic, and the topic search finds
// those that carry the topic without saying it; together exactly the world's matching repositories.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { exists } from "../../../sim/metrics.ts";
import { descriptionOf, topicNames } from "../../../sim/repo-text.ts";
import { openBatchStore } from "../../collect/batches.ts";
import { createHttpClient, type HttpClient } from "../../collect/http.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import { createGithubClient } from "./client.ts";
import { discover } from "./discover.ts";
import type { SearchTerm } from "./topics.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let http: HttpClient;
let stateDir: string;

beforeAll(async () => {
  sim = await startSimServer({ repos: 2000, seed: 5, date: RUN_DATE, port: 0 });
  http = createHttpClient({ ...loadConfig().http, sleep: async () => {} });
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-discover-sim-"));
});
afterAll(async () => {
  http.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

async function discoverAll(terms: SearchTerm[]): Promise<Map<string, string>> {
  const config = loadConfig({ overrides: { simUrl: sim.url, stateDir } });
  const ctx: CollectContext = {
    config,
    urls: sourceUrls(config),
    http,
    logger: silentLogger,
    clock: { now: () => new Date(`${RUN_DATE}T03:00:00Z`) },
    sleep: async () => {},
    runDate: RUN_DATE,
    batches: openBatchStore(path.join(stateDir, terms.map((t) => t.value).join("+")), RUN_DATE),
    repos: [],
    count() {},
    async quarantine() {},
  };
  const client = createGithubClient({
    http,
    url: ctx.urls.githubGraphql,
    tokens: ["sim"],
    clock: ctx.clock,
    sleep: ctx.sleep,
    maxRetryWaitMs: 1000,
    logger: silentLogger,
  });
  const found = new Map<string, string>();
  for await (const item of discover(ctx, client, terms, found))
    if ("rows" in item) await ctx.batches.write("github", item.id, item.rows);
  return found;
}

/** node id → owner/name of the living repositories (forks included) that pass the test, from the world. */
function expected(test: (i: number) => boolean): Map<string, string> {
  const ids = Array.from({ length: sim.world.size }, (_, i) => i).filter(
    (i) => exists(sim.world, i, NOW) && test(i),
  );
  return new Map(ids.map((i) => [sim.world.nodeId(i), sim.world.fullNameAt(i, NOW)]));
}

// Written independently of the simulator's matcher: the words "vector database" next to each other.
const phrase = /(^|[^a-z0-9])vector[^a-z0-9]+database([^a-z0-9]|$)/;
const saysIt = (i: number) =>
  phrase.test((descriptionOf(sim.world, i) ?? "").toLowerCase()) ||
  phrase.test(sim.world.repoNameAt(i, NOW).toLowerCase());
const tagged = (i: number) => topicNames(sim.world, i).includes("vector-database");
const sorted = (m: Map<string, string>) => [...m].sort(([a], [b]) => a.localeCompare(b));

describe("keyword discovery against the simulator", () => {
  it("finds exactly the repositories naming the phrase, those without the topic included", async () => {
    const found = await discoverAll([{ kind: "keyword", value: "vector database" }]);
    expect(sorted(found)).toEqual(sorted(expected(saysIt)));
    const untagged = expected((i) => saysIt(i) && !tagged(i));
    expect([found.size, untagged.size]).toEqual([21, 4]);
    for (const id of untagged.keys()) expect(found.has(id)).toBe(true);
  });

  it("with the topic, finds the union of both, once each", async () => {
    const found = await discoverAll([
      { kind: "topic", value: "vector-database" },
      { kind: "keyword", value: "vector database" },
    ]);
    expect(sorted(found)).toEqual(sorted(expected((i) => saysIt(i) || tagged(i))));
    expect(found.size - (await discoverAll([{ kind: "topic", value: "vector-database" }])).size).toBe(4);
  });
});
