// collect's orchestration with in-memory sources over a real DuckDB and batch folder: reports, isolation of
// a failed source, `needs`, resume. Runs against the simulator are in collect.sim.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { silentLogger } from "../core/log.ts";
import { createHttpClient } from "./collect/http.ts";
import { type CollectReport, collect } from "./collect.ts";
import type { BatchItem, CollectContext, RawTable, Source } from "./sources/types.ts";

let stateDir = "";
let db: Db;
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-collect-"));
  db = await openDb(path.join(stateDir, "warehouse.duckdb"));
});
afterEach(async () => {
  db.close();
  await rm(stateDir, { recursive: true, force: true });
});

const fetched: string[] = [];
const ROWS = {
  raw_pypi_downloads: (ctx: CollectContext, pkg: string) => ({
    run_date: ctx.runDate,
    package: pkg,
    last_day: 1,
    last_week: 2,
    last_month: 3,
    fetched_at: "2026-03-01T01:00:00Z",
  }),
  raw_pypi_projects: (ctx: CollectContext, pkg: string) => ({
    run_date: ctx.runDate,
    package: pkg,
    repo_full_name: null,
    version: "1.0",
    summary: null,
    license: null,
    requires_dist: [],
    releases_total: 1,
    stable_releases: 1,
    first_release_at: null,
    latest_release_at: null,
    fetched_at: "2026-03-01T01:00:00Z",
  }),
};

/** A source that "fetches" the given packages, one batch each, unless the batch is already saved. */
function fakeSource(
  name: string,
  table: RawTable,
  packages: string[],
  options: { failAt?: string; needs?: string[] } = {},
): Source {
  return {
    name,
    tables: [table],
    needs: options.needs ?? [],
    toRows: () => [],
    async *collect(ctx): AsyncGenerator<BatchItem> {
      for (const pkg of packages) {
        const id = `${table}.${pkg}`;
        if (await ctx.batches.has(name, id)) {
          yield { id, resumed: true };
          continue;
        }
        if (pkg === options.failAt)
          throw new AppError(`${pkg} could not be fetched.`, { kind: "transient", hint: "Try later." });
        fetched.push(pkg);
        ctx.count("skipped", 1);
        const make = ROWS[table as keyof typeof ROWS];
        yield { id, table, rows: [make(ctx, pkg)] };
      }
    },
  };
}

async function run(sources: Source[]): Promise<CollectReport> {
  const config = loadConfig({ overrides: { stateDir } });
  const http = createHttpClient({ ...config.http, sleep: async () => {} });
  try {
    return await collect({
      config,
      db,
      http,
      logger: silentLogger,
      runDate: "2026-03-01",
      stateDir,
      sources,
    });
  } finally {
    http.close();
  }
}

const strip = (report: CollectReport) => report.sources.map(({ duration_ms: _, ...rest }) => rest);

describe("collect", () => {
  it("reports each source; a failed source neither stops the others nor loads its rows", async () => {
    fetched.length = 0;
    const report = await run([
      fakeSource("first", "raw_pypi_downloads", ["a", "b"]),
      fakeSource("broken", "raw_pypi_projects", ["c", "d"], { failAt: "d" }),
      fakeSource("dependent", "raw_github_repos", ["e"], { needs: ["broken"] }),
    ]);
    expect(report.run_date).toBe("2026-03-01");
    expect(report.github_graphql_points).toBe(0);
    expect(strip(report)).toEqual([
      {
        source: "first",
        status: "ok",
        requests: 0,
        rows: 2,
        batches_fetched: 2,
        batches_resumed: 0,
        batches_deferred: 0,
        skipped: 2,
        quarantined: 0,
        table_rows: { raw_pypi_downloads: 2 },
      },
      {
        source: "broken",
        status: "failed",
        requests: 0,
        rows: 0,
        batches_fetched: 1,
        batches_resumed: 0,
        batches_deferred: 0,
        skipped: 1,
        quarantined: 0,
        table_rows: {},
        error: "d could not be fetched. Try later.",
      },
      {
        source: "dependent",
        status: "failed",
        requests: 0,
        rows: 0,
        batches_fetched: 0,
        batches_resumed: 0,
        batches_deferred: 0,
        skipped: 0,
        quarantined: 0,
        table_rows: {},
        error:
          "dependent was not run: it needs broken, which did not succeed in this run. Fix broken and run collect again for 2026-03-01; finished batches are kept.",
      },
    ]);
    expect(await db.all("SELECT package FROM raw_pypi_downloads ORDER BY package")).toEqual([
      { package: "a" },
      { package: "b" },
    ]);
    // The failed source's table was not even created: its rows for the day are simply absent.
    expect(await db.all("SELECT table_name FROM information_schema.tables ORDER BY 1")).toEqual([
      { table_name: "raw_pypi_downloads" },
    ]);
  });

  it("resumes: saved batches are not fetched again and the failed source finishes on the next run", async () => {
    fetched.length = 0;
    const first = fakeSource("first", "raw_pypi_downloads", ["a", "b"]);
    await run([first, fakeSource("broken", "raw_pypi_projects", ["c", "d"], { failAt: "d" })]);
    // Independent sources run side by side: only the order within each source is fixed.
    expect([...fetched].sort()).toEqual(["a", "b", "c"]);
    fetched.length = 0;
    const again = await run([first, fakeSource("broken", "raw_pypi_projects", ["c", "d"])]);
    expect(fetched).toEqual(["d"]);
    expect(
      strip(again).map((r) => [r.source, r.status, r.batches_fetched, r.batches_resumed, r.rows]),
    ).toEqual([
      ["first", "ok", 0, 2, 2],
      ["broken", "ok", 1, 1, 2],
    ]);
  });

  it("runs independent sources side by side and starts a dependent only when what it needs has finished", async () => {
    const events: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const traced = (name: string, table: RawTable, needs: string[], wait?: Promise<void>): Source => ({
      name,
      tables: [table],
      needs,
      toRows: () => [],
      async *collect(ctx): AsyncGenerator<BatchItem> {
        events.push(`${name}:start`);
        if (wait) await wait;
        const make = ROWS[table as keyof typeof ROWS];
        yield { id: `${table}.${name}`, table, rows: make ? [make(ctx, name)] : [] };
        events.push(`${name}:end`);
      },
    });
    const report = run([
      traced("slow", "raw_pypi_downloads", [], gate),
      traced("fast", "raw_pypi_projects", []),
      traced("after", "raw_npm_packages", ["slow"]),
    ]);
    // "fast" starts and finishes while "slow" still waits; "after" has not started.
    await expect.poll(() => events.includes("fast:end"), { timeout: 30_000, interval: 10 }).toBe(true);
    expect(events).toEqual(["slow:start", "fast:start", "fast:end"]);
    release();
    const done = await report;
    expect(events).toEqual(["slow:start", "fast:start", "fast:end", "slow:end", "after:start", "after:end"]);
    expect(done.sources.map((r) => [r.source, r.status])).toEqual([
      ["slow", "ok"],
      ["fast", "ok"],
      ["after", "ok"],
    ]);
  });

  it("refuses two sources writing one table (the second load would replace the first's rows)", async () => {
    await expect(
      run([fakeSource("one", "raw_pypi_downloads", []), fakeSource("two", "raw_pypi_downloads", [])]),
    ).rejects.toThrow("raw_pypi_downloads is written by both one and two");
  });
});
