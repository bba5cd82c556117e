// The tracked set over six nights against the simulator, which renames and deletes repositories: collect
// (GitHub only) each night, then score; feat_tracked must keep a renamed repository as one row with its
// first sighting and former name, and date a deleted one from its first NOT_FOUND, as the world says.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { collect } from "./collect.ts";
import { score } from "./score.ts";
import { closeDiscarded } from "./sim-collect.testing.ts";
import { github } from "./sources/github/index.ts";

const START = "2026-03-01";
const NIGHTS = 6;
const DAY_MS = 86_400_000;
const startDay = Date.parse(`${START}T00:00:00Z`) / DAY_MS;
const lastDay = startDay + NIGHTS - 1;
const date = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

let sim: SimServer;
let stateDir: string;
let db: Db;
/** World index of every node id. */
const indexOf = new Map<string, number>();

beforeAll(async () => {
  // Far more renames and deletions than the default world, so that several fall within six nights.
  sim = await startSimServer({
    repos: 1200,
    seed: 31,
    date: START,
    port: 0,
    renameShare: 0.3,
    deleteShare: 0.2,
  });
  for (let i = 0; i < sim.world.size; i++) indexOf.set(sim.world.nodeId(i), i);
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-tracked-"));
  db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  const config = loadConfig({
    overrides: { simUrl: sim.url, stateDir, github: { topics: [...TOPIC_VOCABULARY] } },
  });
  for (let night = 0; night < NIGHTS; night++) {
    if (night > 0) await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const runDate = date(startDay + night);
    const report = await collect({
      config,
      db,
      logger: silentLogger,
      runDate,
      stateDir,
      sleep: async () => {},
      sources: [github],
    });
    expect(report.sources[0]?.status).toBe("ok");
  }
  await score({ db, runDate: date(lastDay), logger: silentLogger });
}, 300_000);
afterAll(async () => {
  await closeDiscarded(db);
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** DuckDB's ORDER BY node_id: by code point, not by locale. */
const byNodeId = (a: { node_id: string }, b: { node_id: string }) =>
  a.node_id < b.node_id ? -1 : a.node_id > b.node_id ? 1 : 0;

const COLUMNS = `node_id, full_name, first_seen::VARCHAR AS first_seen, last_seen::VARCHAR AS last_seen,
  previous_names, renamed_on::VARCHAR AS renamed_on, deleted_on::VARCHAR AS deleted_on, tracked`;

/** World indices of the repositories tracked on the first night, with an event day within the nights. */
async function trackedFromStart(event: (i: number) => number): Promise<number[]> {
  const rows = await db.all<{ node_id: string }>(
    "SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE ORDER BY node_id",
    [START],
  );
  return rows
    .map((r) => indexOf.get(r.node_id) as number)
    .filter((i) => event(i) > startDay && event(i) <= lastDay);
}

/** The feat_tracked row the world predicts for a repository tracked from the first night. */
function predicted(i: number) {
  const w = sim.world;
  const lastSeen = Math.min(lastDay, w.deleteDay(i) - 1);
  const renamed = w.renameDay(i) <= lastSeen;
  return {
    node_id: w.nodeId(i),
    full_name: w.fullNameAt(i, lastSeen),
    first_seen: START,
    last_seen: date(lastSeen),
    previous_names: renamed ? [w.fullNameAt(i, startDay)] : [],
    renamed_on: renamed ? date(w.renameDay(i)) : null,
    deleted_on: w.deleteDay(i) <= lastDay ? date(w.deleteDay(i)) : null,
    tracked: w.deleteDay(i) > lastDay,
  };
}

describe("feat_tracked over nights of renames and deletions", () => {
  it("keeps a renamed repository as one row, with its first sighting and its former name", async () => {
    const renamed = await trackedFromStart((i) => sim.world.renameDay(i));
    expect(renamed.length).toBe(7);
    const rows = await db.all(
      `SELECT ${COLUMNS} FROM feat_tracked WHERE node_id IN (${renamed.map(() => "?").join(", ")}) ORDER BY node_id`,
      renamed.map((i) => sim.world.nodeId(i)),
    );
    expect(rows).toEqual(renamed.map(predicted).sort(byNodeId));
  });

  it("dates a deleted repository from its first NOT_FOUND and stops tracking it", async () => {
    const deleted = await trackedFromStart((i) => sim.world.deleteDay(i));
    expect(deleted.length).toBe(7);
    const rows = await db.all(
      `SELECT ${COLUMNS} FROM feat_tracked WHERE node_id IN (${deleted.map(() => "?").join(", ")}) ORDER BY node_id`,
      deleted.map((i) => sim.world.nodeId(i)),
    );
    expect(rows).toEqual(deleted.map(predicted).sort(byNodeId));
    // Every gone row carries the last name the repository was known by.
    const gone = await db.all<{ node_id: string; full_name: string; reason: string }>(
      "SELECT DISTINCT node_id, full_name, reason FROM raw_github_gone ORDER BY node_id",
    );
    expect(gone).toEqual(
      deleted
        .map((i) => ({
          node_id: sim.world.nodeId(i),
          full_name: predicted(i).full_name,
          reason: "not_found",
        }))
        .sort(byNodeId),
    );
    // ...and a repository gone is not asked for again on later nights: one gone row each, on its deletion day.
    const nights = await db.all<{ node_id: string; nights: number; first: string }>(
      "SELECT node_id, count(*)::INTEGER AS nights, min(run_date)::VARCHAR AS first FROM raw_github_gone GROUP BY node_id ORDER BY node_id",
    );
    expect(nights).toEqual(
      deleted
        .map((i) => ({ node_id: sim.world.nodeId(i), nights: 1, first: predicted(i).deleted_on }))
        .sort(byNodeId),
    );
  });

  it("has one row per node id ever collected, gone exactly when the world deleted it", async () => {
    const [counts] = await db.all<{ rows: number; ids: number }>(
      `SELECT (SELECT count(*) FROM feat_tracked)::INTEGER AS rows,
              (SELECT count(DISTINCT node_id) FROM raw_github_repos)::INTEGER AS ids`,
    );
    expect(counts?.rows).toBe(counts?.ids);
    const gone = await db.all<{ node_id: string }>(
      "SELECT node_id FROM feat_tracked WHERE deleted_on IS NOT NULL ORDER BY node_id",
    );
    const seen = await db.all<{ node_id: string }>(
      "SELECT DISTINCT node_id FROM raw_github_repos ORDER BY node_id",
    );
    expect(gone.map((r) => r.node_id)).toEqual(
      seen.map((r) => r.node_id).filter((id) => sim.world.deleteDay(indexOf.get(id) as number) <= lastDay),
    );
  });
});
