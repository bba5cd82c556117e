// Replayed nights over the simulator write the history (Parquet per night), and a warehouse rebuilt from the history
// alone holds exactly the same raw rows, snapshots and transitions — and scores the last night to the same projects.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, statePaths } from "../core/config.ts";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { replayWorld } from "../nightly/replay.testing.ts";
import type { ReplayReport } from "../nightly/replay.ts";
import type { SimServer } from "../sim/index.ts";
import { historyNights, REBUILT_TABLES, rebuildWarehouse, removeHistoryLeftovers } from "./history.ts";
import { RAW_TABLES, score } from "./score.ts";

const START = "2026-11-15";
const NIGHTS = 4;

describe("history and replay", () => {
  let state: string;
  let config: Config;
  let sim: SimServer;
  let report: ReplayReport;

  beforeAll(async () => {
    state = await mkdtemp(path.join(os.tmpdir(), "pis-history-"));
    ({ sim, config, report } = await replayWorld({
      stateDir: state,
      start: START,
      nights: NIGHTS,
      token: "history-test",
    }));
  }, 240_000);

  afterAll(async () => {
    await sim?.close();
    await rm(state, { recursive: true, force: true });
  });

  it("runs one nightly per simulated day, advancing the simulator's clock, and publishes after the last", async () => {
    expect(report.first).toBe(START);
    expect(report.last).toBe("2026-11-18");
    expect(report.nights.map((n) => [n.run_date, n.status])).toEqual([
      ["2026-11-15", "ok"],
      ["2026-11-16", "ok"],
      ["2026-11-17", "ok"],
      ["2026-11-18", "ok"],
    ]);
    expect(await (await fetch(`${sim.url}/_sim/clock`)).json()).toEqual({ date: "2026-11-18" });
    expect(await readdir(statePaths(config).releases)).toHaveLength(2); // one release and current.json
  });

  it("keeps every night as date-partitioned Parquet", async () => {
    const root = statePaths(config).history;
    expect(await historyNights(root)).toEqual(["2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18"]);
    for (const table of RAW_TABLES) {
      expect(await readdir(path.join(root, "raw", table))).toEqual([
        "run_date=2026-11-15",
        "run_date=2026-11-16",
        "run_date=2026-11-17",
        "run_date=2026-11-18",
      ]);
    }
    expect(await readdir(path.join(root, "packages"))).toHaveLength(NIGHTS);
  });

  it("rebuilds a warehouse equal to the original from the history alone", async () => {
    const target = path.join(state, "rebuilt.duckdb");
    const rebuilt = await rebuildWarehouse({
      root: statePaths(config).history,
      target,
      logger: silentLogger,
    });
    expect(rebuilt).toMatchObject({ nights: NIGHTS, first: "2026-11-15", last: "2026-11-18" });
    const db: Db = await openDb(":memory:");
    try {
      await db.run(`ATTACH ${sqlLiteral(statePaths(config).warehouse)} AS a (READ_ONLY)`);
      await db.run(`ATTACH ${sqlLiteral(target)} AS b`);
      // repo_names and classifications come from the last night's kept tables (history/kept/), equal too
      for (const table of REBUILT_TABLES) {
        const [diff] = await db.all<{ a: number; b: number; only_a: number; only_b: number }>(
          `SELECT (SELECT count(*) FROM a.${table}) AS a, (SELECT count(*) FROM b.${table}) AS b,
             (SELECT count(*) FROM (SELECT * FROM a.${table} EXCEPT ALL SELECT * FROM b.${table})) AS only_a,
             (SELECT count(*) FROM (SELECT * FROM b.${table} EXCEPT ALL SELECT * FROM a.${table})) AS only_b`,
        );
        expect({ table, ...diff }).toEqual({ table, a: diff?.a, b: diff?.a, only_a: 0, only_b: 0 });
      }
      const [counts] = await db.all<{ repos: number; transitions: number }>(
        "SELECT (SELECT count(*) FROM b.raw_github_repos) AS repos, (SELECT count(*) FROM b.transitions) AS transitions",
      );
      expect(counts?.repos).toBeGreaterThan(0);
      expect(counts?.transitions).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    // scoring the last night on the rebuilt warehouse gives the same projects
    const again = await openDb(target);
    try {
      await score({ db: again, runDate: "2026-11-18", logger: silentLogger });
      await again.run(`ATTACH ${sqlLiteral(statePaths(config).warehouse)} AS a (READ_ONLY)`);
      const [diff] = await again.all<{ n: number }>(
        `SELECT count(*) AS n FROM (
           (SELECT * EXCLUDE (lifecycle_since) FROM projects EXCEPT ALL SELECT * EXCLUDE (lifecycle_since) FROM a.projects)
           UNION ALL
           (SELECT * EXCLUDE (lifecycle_since) FROM a.projects EXCEPT ALL SELECT * EXCLUDE (lifecycle_since) FROM projects))`,
      );
      expect(diff?.n).toBe(0);
    } finally {
      again.close();
    }
  });

  it("refuses to rebuild over an existing file or from an empty history, and clears a killed night's temp files", async () => {
    await expect(
      rebuildWarehouse({
        root: statePaths(config).history,
        target: statePaths(config).warehouse,
        logger: silentLogger,
      }),
    ).rejects.toThrow(/Refusing to rebuild into .*warehouse\.duckdb: the file exists\./);
    await expect(
      rebuildWarehouse({
        root: path.join(state, "none"),
        target: path.join(state, "x.duckdb"),
        logger: silentLogger,
      }),
    ).rejects.toThrow(/holds no night: nothing to rebuild from/);
    const dir = path.join(statePaths(config).history, "snapshots", "date=2026-11-19");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "data.parquet.123.tmp"), "half");
    expect(await removeHistoryLeftovers(statePaths(config).history)).toBe(1);
    expect(existsSync(path.join(dir, "data.parquet.123.tmp"))).toBe(false);
  });
});
