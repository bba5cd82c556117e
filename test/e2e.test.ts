// End to end over real sockets: simulator → nightly (collect, score, publish) → API server → HTTP requests.
// Expected values come from the warehouse itself (an independent path: SQL over score_quality), so every
// slice the shim computes from the release index is checked against the database it was rendered from.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { startServer } from "../api-shim/server.ts";
import { type Config, DEFAULT_GITHUB_KEYWORDS, loadConfig, statePaths } from "../core/config.ts";
import { openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { openQueryRunner, type QueryResult } from "../core/query/index.ts";
import { runNightly } from "../nightly/run.ts";
import { historyNights } from "../pipeline/history.ts";
import { resolvePublicDb } from "../pipeline/public-db.ts";
import { DEFAULT_TOPICS } from "../pipeline/sources/github/topics.ts";
import { readStatus, type Status } from "../pipeline/status.ts";
import { parseDay } from "../sim/dates.ts";
import { matchesText } from "../sim/github/search-text.ts";
import { startSimServer } from "../sim/index.ts";
import { exists } from "../sim/metrics.ts";
import { topicNames } from "../sim/repo-text.ts";

interface Row {
  full_name: string;
  domain: string;
  subcategory: string | null;
  quality_score: number;
  quality_tier: string;
}

const DATE = "2026-11-20";
let state: string;
let config: Config;
let rows: Row[];
/** Repositories of the world that exist on the run date and carry a topic the discovery searches. */
let discoverable: number;
/** [source, status, wrote rows] of the nightly's collect. */
let sourcesCollected: [string, string, boolean][];
/** What the night's analytics left: status, history nights, a query over the public database. */
let status: Status;
let nights: string[];
let queried: QueryResult;
let api: { url: string; close(): Promise<void> };
let strictApi: { url: string; close(): Promise<void> };

interface Body {
  data: Row[];
  meta: {
    timestamp: string;
    count: number;
    total: number;
    next_offset: number | null;
    query: Record<string, unknown>;
  };
  detail: { error: { code: string; message: string } };
}

async function get(base: string, query: string) {
  const response = await fetch(`${base}${query}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

/** The domain with the most repositories, and one of its subcategories, for meaningful slices. */
function busiest(): { domain: string; subcategory: string } {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.domain, (counts.get(r.domain) ?? 0) + 1);
  const domain = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
  const subcategory = rows.find((r) => r.domain === domain && r.subcategory)?.subcategory as string;
  return { domain, subcategory };
}

beforeAll(async () => {
  state = await mkdtemp(path.join(os.tmpdir(), "projintel-e2e-"));
  const sim = await startSimServer({ repos: 400, seed: 11, date: DATE, port: 0 });
  const topics = new Set(DEFAULT_TOPICS);
  const now = parseDay(DATE) as number;
  discoverable = Array.from({ length: sim.world.size }, (_, i) => i).filter(
    (i) =>
      exists(sim.world, i, now) &&
      (topicNames(sim.world, i).some((t) => topics.has(t)) ||
        DEFAULT_GITHUB_KEYWORDS.some((k) => matchesText(sim.world, i, [k], ["name", "description"], now))),
  ).length;
  config = loadConfig({
    // A REST budget under one minute of GitHub's pacing (900 a token), so the pacer never waits a minute; commit
    // statistics asked again at once (the simulator computes them at once: GitHub's 5-s pause would only wait).
    overrides: {
      stateDir: state,
      simUrl: sim.url,
      port: 0,
      quota: { anonymous: 10_000 },
      github: { restBudget: 800, statsRetryMs: 0 },
    },
  });
  const db = await openDb(path.join(state, "warehouse.duckdb"));
  try {
    const manifest = await runNightly({ config, db, logger: silentLogger, runDate: DATE });
    expect(manifest.status).toBe("ok");
    sourcesCollected = (manifest.collect?.sources ?? []).map((s) => [s.source, s.status, s.rows > 0]);
    rows = await db.all<Row>(
      "SELECT full_name, domain, subcategory, quality_score, quality_tier FROM score_quality ORDER BY domain, quality_score DESC, stars DESC, full_name",
    );
    status = await readStatus(db);
  } finally {
    db.close();
    await sim.close();
  }
  nights = await historyNights(statePaths(config).history);
  const publicDb = await resolvePublicDb(state);
  const runner = await openQueryRunner({ file: publicDb?.path as string });
  try {
    queried = await runner.run(
      "SELECT count(*) AS projects, count(*) FILTER (WHERE lifecycle_stage IS NULL) AS unstaged, count(*) FILTER (WHERE quality_score <> maintenance_score + adoption_score + maturity_score + community_score) AS unbalanced, count(DISTINCT domain) AS domains FROM projects",
    );
  } finally {
    runner.close();
  }
  api = await startServer({ config, logger: silentLogger });
  // Its own (memory-only) quota store: the embedded store on the state folder belongs to `api`.
  strictApi = await startServer({
    config: { ...config, quota: { ...config.quota, anonymous: 3 } },
    quotas: await openEmbeddedQuotaStore(),
    logger: silentLogger,
  });
}, 180_000);

afterAll(async () => {
  await api?.close();
  await strictApi?.close();
  await rm(state, { recursive: true, force: true });
});

describe("the night's analytics end to end", () => {
  it("writes the night's history and reports every source fresh", () => {
    expect(nights).toEqual([DATE]);
    expect(status.repositories).toBe(rows.length);
    expect(status.sources.map((s) => [s.source, s.fresh])).toEqual(
      [
        "arxiv",
        "dockerhub",
        "github",
        "github_rest",
        "hackernews",
        "huggingface",
        "npm",
        "pypi",
        "pypistats",
      ].map((s) => [s, true]),
    );
  });

  it("serves the public tables read-only: every project staged, its components summing to its score", () => {
    expect(queried.rows).toEqual([[rows.length, 0, 0, new Set(rows.map((r) => r.domain)).size]]);
  });
});

describe("GET /api/v1/quality end to end", () => {
  it("collects every source of the simulated world", () => {
    expect(sourcesCollected).toEqual(
      [
        "github",
        "github_rest",
        "pypi",
        "pypistats",
        "npm",
        "dockerhub",
        "huggingface",
        "hackernews",
        "arxiv",
      ].map((s) => [s, "ok", true]),
    );
  });

  it("tracks every discoverable repository of the simulated world", () => {
    expect(discoverable).toBeGreaterThan(300);
    expect(rows.length).toBe(discoverable);
  });

  it("returns the envelope, ordered by score, with totals and the next offset", async () => {
    const { domain } = busiest();
    const expected = rows.filter((r) => r.domain === domain);
    const { status, headers, body } = await get(api.url, `/api/v1/quality?domain=${domain}`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(body.data.map((r: Row) => r.full_name)).toEqual(expected.slice(0, 50).map((r) => r.full_name));
    expect(body.meta.count).toBe(Math.min(50, expected.length));
    expect(body.meta.total).toBe(expected.length);
    expect(body.meta.next_offset).toBe(expected.length > 50 ? 50 : null);
    expect(body.meta.query).toEqual({ domain, limit: 50, offset: 0 });
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
    expect(Object.keys(body.data[0] as Row).sort()).toEqual(
      [
        "full_name",
        "name",
        "slug",
        "description",
        "stars",
        "forks",
        "language",
        "license",
        "subcategory",
        "pypi_package",
        "downloads_monthly",
        "quality_score",
        "quality_tier",
        "maintenance_score",
        "adoption_score",
        "maturity_score",
        "community_score",
      ].sort(),
    );
  });

  it("pages with limit and offset, down to an empty page past the end", async () => {
    const { domain } = busiest();
    const expected = rows.filter((r) => r.domain === domain).map((r) => r.full_name);
    const page = await get(api.url, `/api/v1/quality?domain=${domain}&limit=7&offset=3`);
    expect(page.body.data.map((r: Row) => r.full_name)).toEqual(expected.slice(3, 10));
    expect(page.body.meta.next_offset).toBe(expected.length > 10 ? 10 : null);
    const past = await get(api.url, `/api/v1/quality?domain=${domain}&offset=${expected.length}`);
    expect(past.body).toMatchObject({
      data: [],
      meta: { count: 0, total: expected.length, next_offset: null },
    });
  });

  it("cuts at min_score and filters by tier and subcategory", async () => {
    const { domain, subcategory } = busiest();
    const inDomain = rows.filter((r) => r.domain === domain);
    const cut = inDomain[Math.floor(inDomain.length / 2)]?.quality_score as number;
    const min = await get(api.url, `/api/v1/quality?domain=${domain}&min_score=${cut}&limit=500`);
    expect(min.body.meta.total).toBe(inDomain.filter((r) => r.quality_score >= cut).length);
    expect(min.body.data.every((r: Row) => r.quality_score >= cut)).toBe(true);

    const ranges: Record<string, [number, number]> = {
      verified: [80, 100],
      established: [60, 79],
      emerging: [40, 59],
      experimental: [0, 39],
    };
    for (const [tier, [lo, hi]] of Object.entries(ranges)) {
      const res = await get(api.url, `/api/v1/quality?domain=${domain}&quality_tier=${tier}&limit=500`);
      expect(res.body.meta.total).toBe(inDomain.filter((r) => r.quality_tier === tier).length);
      for (const r of res.body.data as Row[]) {
        expect(r.quality_tier).toBe(tier);
        expect(r.quality_score).toBeGreaterThanOrEqual(lo);
        expect(r.quality_score).toBeLessThanOrEqual(hi);
      }
    }

    const sub = await get(api.url, `/api/v1/quality?domain=${domain}&subcategory=${subcategory}&limit=500`);
    expect(sub.body.data.map((r: Row) => r.full_name)).toEqual(
      inDomain.filter((r) => r.subcategory === subcategory).map((r) => r.full_name),
    );
    expect(sub.body.data.every((r: Row) => r.subcategory === subcategory)).toBe(true);
  });

  it("answers 422 invalid_domain and 404 not_found in the error envelope with quota headers", async () => {
    const bad = await get(api.url, "/api/v1/quality?domain=blockchain");
    expect(bad.status).toBe(422);
    expect(bad.body.detail.error.code).toBe("invalid_domain");
    expect(bad.body.detail.error.message).toContain("blockchain");
    expect(bad.headers.get("x-ratelimit-limit")).toBe("10000");

    const missing = await get(api.url, "/api/v1/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.body.detail.error.code).toBe("not_found");
    expect(missing.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });

  it("counts the anonymous quota and answers 429 when it is used up", async () => {
    const { domain } = busiest();
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(strictApi.url, `/api/v1/quality?domain=${domain}&limit=1`);
      expect(res.status).toBe(200);
      seen.push(res.headers.get("x-ratelimit-remaining") as string);
    }
    expect(seen).toEqual(["2", "1", "0"]);
    const over = await get(strictApi.url, `/api/v1/quality?domain=${domain}`);
    expect(over.status).toBe(429);
    expect(over.body.detail.error.code).toBe("rate_limit_exceeded");
    expect(over.headers.get("x-ratelimit-limit")).toBe("3");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = over.headers.get("x-ratelimit-reset") as string;
    expect(reset).toMatch(/T00:00:00(\.000)?(Z|\+00:00)$/);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
