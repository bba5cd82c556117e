// github.discovery against the simulator: "off" still searches on a first night (nothing is tracked yet), then
// only refreshes the tracked repositories; "full" searches every term in full and finds what a first night finds.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../../core/config.ts";
import { type Db, openDb } from "../../../core/db.ts";
import { silentLogger } from "../../../core/log.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { type CollectReport, collect } from "../../collect.ts";
import { github } from "./index.ts";

const START = "2026-03-01";
let sim: SimServer;
const dirs: string[] = [];

async function night(
  discovery: Config["github"]["discovery"],
  db: Db,
  stateDir: string,
  runDate: string,
): Promise<CollectReport> {
  const config = loadConfig({
    overrides: { simUrl: sim.url, stateDir, github: { discovery, restBudget: 0 } },
  });
  return collect({
    config,
    db,
    logger: silentLogger,
    runDate,
    stateDir,
    sleep: async () => {},
    sources: [github],
  });
}

async function warehouse(): Promise<{ db: Db; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "projintel-discovery-"));
  dirs.push(dir);
  return { db: await openDb(path.join(dir, "warehouse.duckdb")), dir };
}

const nodes = async (db: Db, date: string) =>
  (
    await db.all<{ node_id: string }>(
      "SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE ORDER BY 1",
      [date],
    )
  ).map((r) => r.node_id);

describe("github.discovery", () => {
  const reports: CollectReport[] = [];
  let tracked: Db;
  const later = "2026-03-11";
  const fullNight = "2026-03-12";

  beforeAll(async () => {
    sim = await startSimServer({ repos: 600, seed: 8, date: START, port: 0 });
    const { db, dir } = await warehouse();
    tracked = db;
    reports.push(await night("off", db, dir, START));
    await fetch(`${sim.url}/_sim/advance?days=10`, { method: "POST" });
    reports.push(await night("off", db, dir, later));
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    reports.push(await night("full", db, dir, fullNight));
  }, 120_000);

  afterAll(async () => {
    tracked.close();
    await sim.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("off: searches on a first night, then refreshes exactly the tracked repositories without searching", async () => {
    expect(reports[0]?.github_graphql_points_discovery).toBeGreaterThan(0);
    expect(reports[1]?.github_graphql_points_discovery).toBe(0);
    expect(await nodes(tracked, later)).toEqual(await nodes(tracked, START));
  });

  it("full: every term searched in full finds what a first night finds, repositories created meanwhile included", async () => {
    const fresh = await warehouse();
    try {
      await night("tiered", fresh.db, fresh.dir, fullNight);
      const found = await nodes(fresh.db, fullNight);
      expect(await nodes(tracked, fullNight)).toEqual(found);
      expect(found.length).toBeGreaterThan((await nodes(tracked, START)).length);
    } finally {
      fresh.db.close();
    }
  });
});
