// collect against a simulator that damages a share of its answers: malformed payloads are quarantined with
// their URL and schema issue, counted, and never stop the run; the repositories they held are carried
// forward as stale; the next invocation for the same date fetches exactly the deferred batches again.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { openQuarantine } from "./collect/quarantine.ts";
import { type CollectReport, collect } from "./collect.ts";
import { SOURCES } from "./sources/index.ts";

const RUN_DATE = "2026-03-01";
let sim: SimServer;
let stateDir: string;
let db: Db;

beforeAll(async () => {
  sim = await startSimServer({
    repos: 600,
    seed: 5,
    date: RUN_DATE,
    port: 0,
    faults: { rate: 0.25, kinds: ["malformed"], seed: 3 },
  });
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-collect-faults-"));
  db = await openDb(":memory:");
});
afterAll(async () => {
  db.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

async function run(): Promise<CollectReport> {
  const config = loadConfig({
    overrides: { simUrl: sim.url, stateDir, github: { topics: [...TOPIC_VOCABULARY], keywords: [] } },
  });
  const sources = SOURCES.filter((s) => ["github", "pypi", "pypistats"].includes(s.name));
  return collect({
    config,
    db,
    logger: silentLogger,
    runDate: RUN_DATE,
    stateDir,
    sleep: async () => {},
    sources,
  });
}

const bySource = (report: CollectReport, name: string) => report.sources.find((s) => s.source === name);

describe("collect with malformed answers", () => {
  let first: CollectReport;
  beforeAll(async () => {
    first = await run();
  });

  it("finishes every source and quarantines each malformed payload with its URL and schema issue", async () => {
    expect(first.sources.map((s) => [s.source, s.status])).toEqual([
      ["github", "ok"],
      ["pypi", "ok"],
      ["pypistats", "ok"],
    ]);
    expect(first.quarantined).toBeGreaterThan(0);
    expect(first.quarantined).toBe(first.sources.reduce((n, s) => n + s.quarantined, 0));
    const files = await openQuarantine(stateDir, RUN_DATE).list();
    expect(files.length).toBe(first.quarantined);
    for (const file of files) {
      expect(path.relative(stateDir, file)).toMatch(
        new RegExp(`^quarantine/${RUN_DATE}/(github|pypi|pypistats)/[0-9a-f]{16}\\.json$`),
      );
      const entry = JSON.parse(await readFile(file, "utf8"));
      expect(entry.url).toMatch(new RegExp(`^${sim.url}/`));
      expect(entry.issues[0]).toEqual({ path: expect.any(String), message: expect.any(String) });
      expect(entry).toHaveProperty("payload");
    }
  });

  it("accounts for every tracked repository: refreshed, stale, or gone", () => {
    const github = bySource(first, "github");
    expect(first.repos_total).toBeGreaterThan(0);
    expect(first.repos_refreshed).toBe(github?.rows);
    expect(first.repos_refreshed + first.repos_stale + (github?.skipped ?? 0)).toBe(first.repos_total);
    expect(first.requests).toEqual({
      github: github?.requests,
      pypi: bySource(first, "pypi")?.requests,
      pypistats: bySource(first, "pypistats")?.requests,
    });
  });

  it("fetches the deferred batches again in the next invocation for the date, and nothing else", async () => {
    await fetch(`${sim.url}/_sim/faults`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
    const deferred = bySource(first, "github")?.batches_deferred ?? 0;
    const fetched = bySource(first, "github")?.batches_fetched ?? 0;
    const again = await run();
    const github = bySource(again, "github");
    expect(github?.batches_deferred).toBe(0);
    expect(github?.batches_fetched).toBe(deferred);
    expect(github?.batches_resumed).toBe(fetched);
    expect(again.repos_refreshed).toBeGreaterThanOrEqual(first.repos_refreshed);
  });
});
