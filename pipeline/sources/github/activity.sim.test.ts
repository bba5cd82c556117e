// The REST activity phase against the simulator over real sockets: contributors, 52 commit weeks and the
// median time to first answer on recent issues, checked against the world's own functions; the REST budget
// leaves the repositories past it stale; a second pass the same day costs 304s for comments and activity.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { ITEM_MAX_LAG, itemAt, itemsOpened, updatedAt } from "../../../sim/github/rest-issues.ts";
import { commitActivity, contributorCount } from "../../../sim/github/rest-lists.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { exists, stars } from "../../../sim/metrics.ts";
import { type BatchStore, openBatchStore } from "../../collect/batches.ts";
import { createHttpClient, type HttpClient, memoryEtagStore } from "../../collect/http.ts";
import type { Batch, BatchItem, CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import { activityBatchId, collectActivity, REST_REQUESTS_PER_REPO_MAX, type RepoChunk } from "./activity.ts";
import { COMMENT_REQUESTS_PER_REPO, ISSUE_WINDOW_DAYS, ISSUES_PER_PAGE, median } from "./issues.ts";
import { createRestClient, REST_SOURCE } from "./rest-client.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let http: HttpClient;
let stateDir = "";
let batches: BatchStore;
const counts: Record<string, number> = {};

beforeAll(async () => {
  sim = await startSimServer({ repos: 200, seed: 4, date: RUN_DATE, port: 0 });
  http = createHttpClient({ ...loadConfig().http, etags: memoryEtagStore(), sleep: async () => {} });
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-activity-"));
  batches = openBatchStore(stateDir, RUN_DATE);
});
afterAll(async () => {
  http.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

function context(): CollectContext {
  const config = loadConfig({ overrides: { simUrl: sim.url } });
  return {
    config,
    urls: sourceUrls(config),
    http,
    logger: silentLogger,
    clock: { now: () => new Date(`${RUN_DATE}T03:00:00Z`) },
    sleep: async () => {},
    runDate: RUN_DATE,
    batches,
    repos: [],
    count(what, n = 1) {
      counts[what] = (counts[what] ?? 0) + n;
    },
    async quarantine(url) {
      throw new Error(`unexpected quarantine of ${url}`);
    },
  };
}

const living = () => Array.from({ length: 200 }, (_, i) => i).filter((i) => exists(sim.world, i, NOW));
const repoOf = (i: number) => ({
  node_id: sim.world.nodeId(i),
  full_name: sim.world.fullNameAt(i, NOW),
  stars: 0,
});
const chunkOf = (k: number, indexes: number[]): RepoChunk => ({ k, repos: indexes.map(repoOf) });

/** Runs the activity phase over `chunks` within `budget`, with a fresh paced client as the source makes. */
function activity(chunks: RepoChunk[], budget: number) {
  const ctx = context();
  return collectActivity(ctx, createRestClient(ctx), chunks, budget);
}

/** The median the connector should find, from the world's issues as the REST list shows them. */
function expectedIssues(i: number): { median: number | null; sampled: number } {
  const since = NOW - ISSUE_WINDOW_DAYS;
  const total = itemsOpened(sim.world, i, NOW);
  const from = itemsOpened(sim.world, i, since - ITEM_MAX_LAG) + 1;
  const page = [];
  for (let n = total; n >= from && page.length < ISSUES_PER_PAGE; n--) {
    const item = itemAt(sim.world, i, n, NOW, total);
    if (updatedAt(item, NOW) >= since) page.push(item);
  }
  const hours: number[] = [];
  let lookups = 0;
  for (const item of page.filter((it) => !it.isPr && it.created >= since)) {
    const seen = item.comments.filter((at) => at <= NOW);
    let answered = item.closed <= NOW ? item.closed : Number.POSITIVE_INFINITY;
    if (seen.length > 0) {
      if (lookups++ >= COMMENT_REQUESTS_PER_REPO) continue;
      answered = Math.min(answered, seen[0] as number);
    }
    if (Number.isFinite(answered)) hours.push((answered - item.created) * 24);
  }
  return { median: median(hours), sampled: hours.length };
}

async function drain(items: AsyncIterable<BatchItem>): Promise<BatchItem[]> {
  const out: BatchItem[] = [];
  for await (const item of items) {
    out.push(item);
    if ("table" in item) await batches.write(REST_SOURCE, item.id, item.rows);
  }
  return out;
}

describe("REST activity of the repositories refreshed in full", () => {
  let first: number[] = [];
  let second: number[] = [];
  beforeAll(() => {
    // the 20 most starred: most repositories of the world are small and have few or no recent issues
    const top = living()
      .sort((a, b) => stars(sim.world, b, NOW) - stars(sim.world, a, NOW))
      .slice(0, 20);
    first = top.slice(0, 12).sort((a, b) => a - b);
    second = top.slice(12).sort((a, b) => a - b);
  });

  it("fills contributors, commit weeks and issue responsiveness with the world's exact values", async () => {
    const before = http.stats().bySource.github_rest?.requests ?? 0;
    const items = await drain(activity([chunkOf(0, first)], 10_000));
    expect(items.map((b) => b.id)).toEqual([activityBatchId(0)]);
    const rows = (items[0] as Batch).rows;
    expect(rows).toHaveLength(first.length);
    for (const [k, i] of first.entries()) {
      const row = rows[k] as Record<string, unknown>;
      const weeks = commitActivity(sim.world, i, NOW).map((w) => w.total);
      const issues = expectedIssues(i);
      expect([row.node_id, row.full_name, row.contributors]).toEqual([
        sim.world.nodeId(i),
        sim.world.fullNameAt(i, NOW),
        contributorCount(sim.world, i, NOW),
      ]);
      expect(row.commit_weeks).toEqual(weeks);
      expect(row.commits_52w).toBe(weeks.reduce((a, b) => a + b, 0));
      expect(row.issues_sampled).toBe(issues.sampled);
      if (issues.median === null) expect(row.issue_response_median_hours).toBeNull();
      else expect(row.issue_response_median_hours).toBeCloseTo(issues.median, 2);
      expect([row.run_date, row.activity_as_of]).toEqual([RUN_DATE, RUN_DATE]);
    }
    expect(rows.filter((r) => Number(r.issues_sampled) > 0).length).toBeGreaterThan(first.length / 2);
    const spent = (http.stats().bySource.github_rest?.requests ?? 0) - before;
    expect(spent).toBeLessThanOrEqual(first.length * REST_REQUESTS_PER_REPO_MAX);
    expect(spent).toBeGreaterThanOrEqual(first.length * 4); // contributors, issues, activity 202 then 200
  });

  it("stops at the REST budget: a saved batch keeps what it cost, the repositories past the budget are stale", async () => {
    counts.activity_stale = 0;
    // The saved batch of chunk 0 keeps the cost its invocation noted beside it; three worst cases are left after it.
    const [noted] = await batches.read<{ requests: number }>(REST_SOURCE, `spent.${activityBatchId(0)}`);
    const budget = (noted?.requests as number) + 3 * REST_REQUESTS_PER_REPO_MAX;
    const before = http.stats().bySource.github_rest?.requests ?? 0;
    const items = await drain(activity([chunkOf(0, first), chunkOf(1, second)], budget));
    expect(items.map((b) => [b.id, "resumed" in b])).toEqual([
      [activityBatchId(0), true],
      [activityBatchId(1), false],
    ]);
    const read = (items[1] as Batch).rows.map((r) => r.node_id);
    // the stalest first (none read yet, no stars: chunk order), as many as the three worst cases pay for
    expect(read).toEqual(second.slice(0, read.length).map((i) => sim.world.nodeId(i)));
    expect(read.length).toBeGreaterThanOrEqual(3);
    expect(counts.activity_stale).toBe(second.length - read.length);
    expect(counts.activity_stale).toBeGreaterThan(0);
    const spent = (http.stats().bySource.github_rest?.requests ?? 0) - before;
    const [cost] = await batches.read<{ requests: number }>(REST_SOURCE, `spent.${activityBatchId(1)}`);
    // the noted cost is what the budget charged: never less than GitHub did, within the three worst cases
    expect(spent).toBeLessThanOrEqual(cost?.requests as number);
    expect(cost?.requests).toBeLessThanOrEqual(3 * REST_REQUESTS_PER_REPO_MAX);
  });

  it("asks comments and commit activity conditionally: the same resources again cost free 304s", async () => {
    const costOf = async () =>
      (await batches.read<{ requests: number }>(REST_SOURCE, `spent.${activityBatchId(0)}`))[0]?.requests;
    const firstCost = await costOf();
    await rm(path.join(stateDir, "runs"), { recursive: true, force: true });
    batches = openBatchStore(stateDir, RUN_DATE);
    const notModified = http.stats().bySource.github_rest?.not_modified ?? 0;
    await drain(activity([chunkOf(0, first)], 10_000));
    expect((http.stats().bySource.github_rest?.not_modified ?? 0) - notModified).toBeGreaterThanOrEqual(
      first.length,
    );
    // the budget charges what the repositories' data asks for, not what a cache or GitHub's statistics spared: a
    // runner with a warm cache plans the night as a fresh one does
    expect(await costOf()).toBe(firstCost);
  });

  it("spends what a wave did not: the next stalest are read until less than one worst case is left", async () => {
    await rm(path.join(stateDir, "runs"), { recursive: true, force: true });
    batches = openBatchStore(stateDir, RUN_DATE);
    counts.activity_stale = 0;
    // 40 repositories never asked (no 304s); a budget of 4 worst cases. Reserving the worst case once read 4 of
    // them and left the rest of the budget unspent.
    const fresh = living()
      .filter((i) => !first.includes(i) && !second.includes(i))
      .slice(0, 40);
    const budget = 4 * REST_REQUESTS_PER_REPO_MAX;
    const before = http.stats().bySource.github_rest?.requests ?? 0;
    const items = await drain(activity([chunkOf(0, fresh)], budget));
    const read = (items[0] as Batch).rows.map((r) => r.node_id);
    const spent = (http.stats().bySource.github_rest?.requests ?? 0) - before;
    expect(read).toEqual(fresh.slice(0, read.length).map((i) => sim.world.nodeId(i)));
    expect(read.length).toBeGreaterThan(4);
    expect(counts.activity_stale).toBe(fresh.length - read.length);
    const [cost] = await batches.read<{ requests: number }>(REST_SOURCE, `spent.${activityBatchId(0)}`);
    const charged = cost?.requests as number;
    expect(spent).toBeLessThanOrEqual(charged);
    expect(charged).toBeLessThanOrEqual(budget);
    expect(budget - charged).toBeLessThan(REST_REQUESTS_PER_REPO_MAX);
  });
});
