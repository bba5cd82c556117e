// GET /api/v1/status over a release of the simulated world: every figure checked against plain SQL on the warehouse
// the release was rendered from, and the release id against the release pointer the shim serves.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_TABLES } from "../../pipeline/public-db.ts";
import { DOMAINS, itemEnvelope, statusSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

let sim: SimApp;
// biome-ignore lint/suspicious/noExplicitAny: the body is checked against its schema in the first test.
let body: any;

/** One number from SQL on the warehouse. */
async function count(sql: string): Promise<number> {
  const [row] = await sim.db.all<{ n: number | bigint }>(sql);
  return Number(row?.n);
}

beforeAll(async () => {
  sim = await sharedSimApp();
  const res = await sim.app.inject({ url: "/api/v1/status" });
  expect(res.statusCode).toBe(200);
  body = res.json();
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/status", () => {
  it("is one document in the item envelope, on its schema, naming the release served", async () => {
    expect(itemEnvelope(statusSchema).safeParse(body).success).toBe(true);
    expect(body.meta).toMatchObject({ count: 1, query: {} });
    const pointer = JSON.parse(await readFile(path.join(sim.stateDir, "releases", "current.json"), "utf8"));
    expect(body.data.release_id).toBe(pointer.release_id);
    expect(body.data.run_date).toBe(sim.runDate);
    expect(sim.runDate).toBe("2026-11-20");
  });

  it("counts the repositories and every public table's rows as the warehouse holds them", async () => {
    expect(body.data.repositories).toBe(await count("SELECT count(*) AS n FROM projects"));
    expect(body.data.repositories).toBeGreaterThan(200);
    const expected = [];
    for (const name of PUBLIC_TABLES) {
      expected.push({ name, rows: await count(`SELECT count(*) AS n FROM ${name}`) });
    }
    expect(body.data.tables).toEqual(expected);
  });

  it("lists all 30 domains with their repositories, most first, summing to the repository count", async () => {
    const rows = await sim.db.all<{ domain: string; n: number | bigint }>(
      "SELECT domain, count(*) AS n FROM projects GROUP BY domain",
    );
    const counts = new Map(rows.map((r) => [r.domain, Number(r.n)]));
    const expected = DOMAINS.map((domain) => ({ domain, repositories: counts.get(domain) ?? 0 })).sort(
      (a, b) => b.repositories - a.repositories || (a.domain < b.domain ? -1 : 1),
    );
    expect(body.data.domains).toEqual(expected);
    expect(body.data.domains).toHaveLength(30);
    const total = body.data.domains.reduce((n: number, d: { repositories: number }) => n + d.repositories, 0);
    expect(total).toBe(body.data.repositories);
  });

  it("reports each source's latest night, rows and lag from its raw tables", async () => {
    const byName = new Map(body.data.sources.map((s: { source: string }) => [s.source, s]));
    expect([...byName.keys()]).toEqual([
      "arxiv",
      "dockerhub",
      "github",
      "github_rest",
      "hackernews",
      "huggingface",
      "npm",
      "pypi",
      "pypistats",
    ]);
    const night = `DATE '${sim.runDate}'`;
    expect(byName.get("github")).toEqual({
      source: "github",
      state: "fresh",
      latest_run_date: sim.runDate,
      rows: await count(`SELECT count(*) AS n FROM raw_github_repos WHERE run_date = ${night}`),
      fresh: true,
      days_behind: 0,
    });
    // npm writes two raw tables: its packages and their downloads
    expect(byName.get("npm")).toMatchObject({
      rows: await count(
        `SELECT (SELECT count(*) FROM raw_npm_packages WHERE run_date = ${night}) + (SELECT count(*) FROM raw_npm_downloads WHERE run_date = ${night}) AS n`,
      ),
    });
    // arXiv is asked on the last night only (the earlier replayed nights collect GitHub alone)
    expect(byName.get("arxiv")).toEqual({
      source: "arxiv",
      state: "fresh",
      latest_run_date: sim.runDate,
      rows: await count(`SELECT count(*) AS n FROM raw_arxiv_papers WHERE run_date = ${night}`),
      fresh: true,
      days_behind: 0,
    });
    expect(
      await count(`SELECT count(*) AS n FROM raw_arxiv_papers WHERE run_date = ${night}`),
    ).toBeGreaterThan(0);
  });

  it("gives each registry's stale share from the linked packages", async () => {
    const rows = await sim.db.all<{ registry: string; packages: bigint; stale: bigint }>(
      "SELECT registry, count(*) AS packages, count(*) FILTER (WHERE is_stale) AS stale FROM feat_packages GROUP BY registry ORDER BY registry",
    );
    expect(body.data.stale_packages).toEqual(
      rows.map((r) => ({
        registry: r.registry,
        packages: Number(r.packages),
        stale: Number(r.stale),
        stale_share: Math.round((Number(r.stale) / Number(r.packages)) * 10_000) / 10_000,
      })),
    );
  });

  it("refuses query parameters", async () => {
    const res = await sim.app.inject({ url: "/api/v1/status?domain=rag" });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.error).toMatchObject({
      code: "invalid_parameter",
      message: expect.stringContaining('Unknown parameter "domain"'),
    });
  });
});
