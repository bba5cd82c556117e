// collect against the simulator over real sockets: discovery finds every repository of a small world,
// rows match the world at the sim date, PyPI links are right, and a killed or repeated run refetches nothing.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { formatInstant } from "../sim/dates.ts";
import { recentDownloads } from "../sim/downloads.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import {
  commits,
  exists,
  forks,
  isArchived,
  issueCounts,
  pullRequestCounts,
  releaseCount,
  stars,
  watchers,
} from "../sim/metrics.ts";
import { normalisePypiName } from "../sim/names.ts";
import { releasesAt } from "../sim/releases.ts";
import { FLAG_FORK, FLAG_GH_RELEASES } from "../sim/repo-params.ts";
import {
  defaultBranchOf,
  descriptionOf,
  homepageOf,
  languageOf,
  licenseOf,
  TOPIC_VOCABULARY,
  topicNames,
} from "../sim/repo-text.ts";
import { openBatchStore } from "./collect/batches.ts";
import { type CollectReport, collect } from "./collect.ts";
import { DEFAULT_TOPICS } from "./sources/github/topics.ts";
import { SOURCES } from "./sources/index.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000; // the sim's instant for its date
const ROOT = path.resolve(import.meta.dirname, "..");
let sim: SimServer;
const dirs: string[] = [];

beforeAll(async () => {
  sim = await startSimServer({ repos: 300, seed: 11, date: RUN_DATE, port: 0 });
});
afterAll(async () => {
  await sim.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempState(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "projintel-collect-sim-"));
  dirs.push(dir);
  return dir;
}

async function simRequests(): Promise<{ github: number; pypi: number; pypistats: number }> {
  return (
    (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
      requests: { github: number; pypi: number; pypistats: number };
    }
  ).requests;
}

/** Topic discovery only: keyword searches (github.keywords) have their own simulator test. */
function settings(stateDir: string, topics: readonly string[]) {
  return { simUrl: sim.url, stateDir, github: { topics: [...topics], keywords: [] } };
}

/** GitHub and PyPI are this file's subject; the other sources have their own simulator tests. */
const GITHUB_AND_PYPI = SOURCES.filter((s) => ["github", "pypi", "pypistats"].includes(s.name));

async function runCollect(stateDir: string, db: Db, topics: readonly string[]): Promise<CollectReport> {
  const config = loadConfig({ overrides: settings(stateDir, topics) });
  return collect({ config, db, logger: silentLogger, runDate: RUN_DATE, stateDir, sources: GITHUB_AND_PYPI });
}

/** World indexes of the repositories that exist at the sim date and carry one of the topics. */
function discoverable(topics: readonly string[]): number[] {
  const wanted = new Set(topics);
  return Array.from({ length: sim.world.size }, (_, i) => i).filter(
    (i) => exists(sim.world, i, NOW) && topicNames(sim.world, i).some((t) => wanted.has(t)),
  );
}

const byReport = (report: CollectReport, source: string) => report.sources.find((s) => s.source === source);

describe("collect against the simulator", () => {
  let stateDir = "";
  let db: Db;
  let report: CollectReport;

  beforeAll(async () => {
    stateDir = await tempState();
    db = await openDb(path.join(stateDir, "warehouse.duckdb"));
    report = await runCollect(stateDir, db, TOPIC_VOCABULARY);
  });
  afterAll(() => db.close());

  it("succeeds for every source and spends 10 GraphQL points per 100 repositories on details", async () => {
    expect(report.sources.map((s) => [s.source, s.status, s.error])).toEqual([
      ["github", "ok", undefined],
      ["pypi", "ok", undefined],
      ["pypistats", "ok", undefined],
    ]);
    const github = byReport(report, "github");
    const repos = github?.rows ?? 0;
    const searches = (github?.batches_fetched ?? 0) - Math.ceil(repos / 100);
    // Search pages cost 1 point each; a details call costs round((1 + 10 connections × ids) / 100).
    const details = Math.floor(repos / 100) * 10 + Math.max(1, Math.round((1 + 10 * (repos % 100)) / 100));
    expect(report.github_graphql_points).toBe((github?.requests ?? 0) - Math.ceil(repos / 100) + details);
    expect(searches).toBeGreaterThanOrEqual(TOPIC_VOCABULARY.length);
  });

  it("reports the tracked, refreshed and stale repositories, requests per source and quarantined payloads", () => {
    const github = byReport(report, "github");
    expect(report.repos_total).toBe(discoverable(TOPIC_VOCABULARY).length);
    expect([report.repos_refreshed, report.repos_stale, report.quarantined]).toEqual([github?.rows, 0, 0]);
    expect(report.requests).toEqual(Object.fromEntries(report.sources.map((s) => [s.source, s.requests])));
    expect(report.requests.github).toBeGreaterThan(0);
  });

  it("finds every repository of the world that carries a topic, once", async () => {
    const rows = await db.all<{ node_id: string }>("SELECT node_id FROM raw_github_repos ORDER BY node_id");
    const expected = discoverable(TOPIC_VOCABULARY)
      .map((i) => sim.world.nodeId(i))
      .sort();
    expect(expected.length).toBeGreaterThan(250);
    expect(rows.map((r) => r.node_id)).toEqual(expected);
  });

  it("stores the world's values at the sim date for every repository", async () => {
    const rows = await db.all<Record<string, unknown>>(
      "SELECT *, strftime(created_at, '%Y-%m-%dT%H:%M:%SZ') AS created, strftime(run_date, '%Y-%m-%d') AS run_date_text FROM raw_github_repos ORDER BY node_id",
    );
    const w = sim.world;
    for (const row of rows) {
      const i = w.findNodeId(String(row.node_id)) as number;
      const license = licenseOf(w, i)?.spdxId ?? null;
      const since = (days: number) => commits(w, i, NOW) - commits(w, i, NOW - days);
      const expected = {
        full_name: w.fullName(i),
        owner: w.ownerLogin(w.ownerOf(i)),
        name: w.repoName(i),
        description: descriptionOf(w, i) || null,
        homepage: homepageOf(w, i) || null,
        language: languageOf(w, i),
        license: license === "NOASSERTION" ? null : license,
        topics: topicNames(w, i).slice(0, 20),
        stars: stars(w, i, NOW),
        forks: forks(w, i, NOW),
        watchers: watchers(w, i, NOW),
        open_issues: issueCounts(w, i, NOW).open,
        closed_issues: issueCounts(w, i, NOW).closed,
        open_prs: pullRequestCounts(w, i, NOW).open,
        merged_prs: pullRequestCounts(w, i, NOW).merged,
        is_archived: isArchived(w, i, NOW),
        is_fork: ((w.params.flags[i] as number) & FLAG_FORK) !== 0,
        default_branch: defaultBranchOf(w, i),
        commits_30d: defaultBranchOf(w, i) === null ? 0 : since(30),
        commits_90d: defaultBranchOf(w, i) === null ? 0 : since(90),
        commits_365d: defaultBranchOf(w, i) === null ? 0 : since(365),
        releases_total: (w.params.flags[i] as number) & FLAG_GH_RELEASES ? releasesAt(w, i, NOW).length : 0,
      };
      const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, row[k]]));
      expect({ node_id: row.node_id, ...actual }).toEqual({ node_id: row.node_id, ...expected });
      expect([row.created, row.run_date_text]).toEqual([
        formatInstant(w.params.created[i] as number),
        RUN_DATE,
      ]);
    }
  });

  it("links PyPI projects to their repositories, and finds every one published under the repository's name", async () => {
    const rows = await db.all<{ package: string; repo_full_name: string }>(
      "SELECT package, repo_full_name FROM raw_pypi_projects ORDER BY package",
    );
    const w = sim.world;
    for (const row of rows) {
      const i = w.findPypi(row.package) as number;
      expect(w.fullName(i).toLowerCase()).toBe(row.repo_full_name);
    }
    const findable = discoverable(TOPIC_VOCABULARY)
      .filter((i) => {
        const name = w.pypiName(i);
        return name !== undefined && normalisePypiName(name) === normalisePypiName(w.repoName(i));
      })
      .map((i) => normalisePypiName(w.pypiName(i) as string))
      .sort();
    // A project with no release yet at the sim date is not on PyPI (404).
    const released = findable.filter((name) => releaseCount(w, w.findPypi(name) as number, NOW) >= 1);
    expect(rows.map((r) => r.package)).toEqual(released);
    // ~15% of the world publishes a package, the bigger projects more often
    expect(released.length).toBeGreaterThan(10);
  });

  it("stores pypistats' recent downloads for every accepted project", async () => {
    const rows = await db.all<{ package: string; last_day: number; last_week: number; last_month: number }>(
      "SELECT package, last_day, last_week, last_month FROM raw_pypi_downloads ORDER BY package",
    );
    const projects = await db.all<{ package: string }>(
      "SELECT package FROM raw_pypi_projects ORDER BY package",
    );
    expect(rows.map((r) => r.package)).toEqual(projects.map((p) => p.package));
    for (const row of rows) {
      const all = recentDownloads(sim.world, sim.world.findPypi(row.package) as number, Math.floor(NOW));
      expect(row).toEqual({
        package: row.package,
        last_day: all.last_day,
        last_week: all.last_week,
        last_month: all.last_month,
      });
    }
  });

  it("a second run of the same date sends no request and loads the same rows", async () => {
    const before = await simRequests();
    const again = await runCollect(stateDir, db, TOPIC_VOCABULARY);
    expect(await simRequests()).toEqual(before);
    for (const source of again.sources) {
      const first = byReport(report, source.source);
      expect([source.source, source.status, source.requests, source.batches_fetched, source.rows]).toEqual([
        source.source,
        "ok",
        0,
        0,
        first?.rows,
      ]);
      expect(source.batches_resumed).toBe((first?.batches_fetched ?? 0) + (first?.batches_resumed ?? 0));
    }
  });

  it("with the default topics, finds exactly the repositories carrying one of them", async () => {
    const dir = await tempState();
    const other = await openDb(":memory:");
    const result = await runCollect(dir, other, []);
    expect(byReport(result, "github")?.status).toBe("ok");
    const rows = await other.all<{ node_id: string }>(
      "SELECT node_id FROM raw_github_repos ORDER BY node_id",
    );
    other.close();
    expect(rows.map((r) => r.node_id)).toEqual(
      discoverable(DEFAULT_TOPICS)
        .map((i) => sim.world.nodeId(i))
        .sort(),
    );
  });
});

describe("a repository deleted between discovery and details", () => {
  it("is skipped and counted, and the rest of its batch is stored", async () => {
    const dir = await tempState();
    const db = await openDb(":memory:");
    // A saved search range (as a resumed run would find it) naming a repository GitHub no longer has.
    const ghost = { node_id: "R_kgDOGhost01", full_name: "ghost/gone" };
    const batches = openBatchStore(dir, RUN_DATE);
    await batches.write("github", "search.zz-deleted.20071001-20260301", [ghost]);
    const report = await runCollect(dir, db, ["mcp", "zz-deleted"]);
    const github = byReport(report, "github");
    const expected = discoverable(["mcp"]).length;
    expect([github?.status, github?.table_rows, github?.skipped]).toEqual([
      "ok",
      { raw_github_repos: expected, raw_github_gone: 1 },
      1,
    ]);
    expect(await db.all("SELECT node_id, full_name, reason FROM raw_github_gone")).toEqual([
      { node_id: "R_kgDOGhost01", full_name: "ghost/gone", reason: "not_found" },
    ]);
    const rows = await db.all<{ n: number }>(
      "SELECT count(*) AS n FROM raw_github_repos WHERE node_id = 'R_kgDOGhost01'",
    );
    expect(rows).toEqual([{ n: 0 }]);
    db.close();
  });
});

describe("a collect killed mid-run", () => {
  it("resumes without refetching a finished batch and ends with the same rows as an uninterrupted run", async () => {
    const clean = await tempState();
    const cleanDb = await openDb(":memory:");
    const cleanReport = await runCollect(clean, cleanDb, TOPIC_VOCABULARY);

    const killed = await tempState();
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { collect } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "pipeline/collect.ts")).href)};
         import { loadConfig } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "core/config.ts")).href)};
         import { openDb } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "core/db.ts")).href)};
         import { silentLogger } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "core/log.ts")).href)};
         import { SOURCES } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "pipeline/sources/index.ts")).href)};
         const sources = SOURCES.filter((s) => ["github", "pypi", "pypistats"].includes(s.name));
         const config = loadConfig({ overrides: ${JSON.stringify(settings(killed, TOPIC_VOCABULARY))} });
         await collect({ config, db: await openDb(":memory:"), logger: silentLogger, runDate: "${RUN_DATE}", stateDir: ${JSON.stringify(killed)}, sources });`,
      ],
      { cwd: ROOT, stdio: "ignore" },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const githubDir = path.join(killed, "runs", RUN_DATE, "batches", "github");
    const count = async () =>
      (await readdir(githubDir).catch(() => [] as string[])).filter((f) => f.endsWith(".ndjson")).length;
    for (let waited = 0; (await count()) < 40; waited += 20) {
      if (waited > 60_000) throw new Error("the child collect never got going");
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await exited;
    const saved = await count();
    expect(saved).toBeLessThan(byReport(cleanReport, "github")?.batches_fetched ?? 0);

    const before = await simRequests();
    const db = await openDb(":memory:");
    const resumed = await runCollect(killed, db, TOPIC_VOCABULARY);
    const after = await simRequests();
    const github = byReport(resumed, "github");
    const cleanGithub = byReport(cleanReport, "github");
    expect(github?.status).toBe("ok");
    expect(github?.batches_resumed).toBe(saved);
    expect((github?.batches_fetched ?? 0) + saved).toBe(cleanGithub?.batches_fetched);
    // Every batch here is one request (no search range needs a second page in this world), so the resumed
    // run sends exactly the requests of the batches it did not find.
    expect(cleanGithub?.requests).toBe(cleanGithub?.batches_fetched);
    expect(after.github - before.github).toBe(github?.batches_fetched);
    const dump = (d: Db) => d.all("SELECT * EXCLUDE (fetched_at) FROM raw_github_repos ORDER BY node_id");
    expect(await dump(db)).toEqual(await dump(cleanDb));
    for (const table of ["raw_pypi_projects", "raw_pypi_downloads"]) {
      const rows = (d: Db) => d.all(`SELECT * EXCLUDE (fetched_at) FROM ${table} ORDER BY package`);
      expect(await rows(db)).toEqual(await rows(cleanDb));
    }
    db.close();
    cleanDb.close();
  });

  it("refetches exactly the batches whose files are gone", async () => {
    const dir = await tempState();
    const db = await openDb(":memory:");
    await runCollect(dir, db, TOPIC_VOCABULARY);
    const batches = path.join(dir, "runs", RUN_DATE, "batches");
    await rm(path.join(batches, "github", "raw_github_repos.00001.ndjson"));
    await rm(path.join(batches, "pypistats", "raw_pypi_downloads.00000.ndjson"));
    const before = await simRequests();
    const again = await runCollect(dir, db, TOPIC_VOCABULARY);
    const after = await simRequests();
    expect(again.sources.map((s) => [s.source, s.batches_fetched])).toEqual([
      ["github", 1],
      ["pypi", 0],
      ["pypistats", 1],
    ]);
    expect(after.github - before.github).toBe(1);
    expect(after.pypi - before.pypi).toBe(0);
    expect(after.pypistats - before.pypistats).toBe(byReport(again, "pypistats")?.rows);
    db.close();
  });
});
