// Collect tests against a simulated world over real sockets: the simulator, a fresh state folder and warehouse,
// and a config pointing at both; each night advances the simulator's clock (after the first) and collects.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Config, loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { type SimServer, type SimServerOptions, startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { type CollectReport, collect } from "./collect.ts";
import type { Source } from "./sources/types.ts";

export interface SimCollectWorld {
  sim: SimServer;
  db: Db;
  stateDir: string;
  config: Config;
  /** Collects tonight with `sources` (advancing the simulator a day first, except on the first night). */
  night(sources: readonly Source[]): Promise<{ date: string; report: CollectReport }>;
  close(): Promise<void>;
}

/** A 3,000-repository world of seed 21 from `date`, unless `sim` says otherwise; GitHub searches every sim topic. */
export async function openSimCollectWorld(options: {
  date: string;
  sim?: Partial<SimServerOptions>;
  restBudget?: number;
}): Promise<SimCollectWorld> {
  const sim = await startSimServer({ repos: 3000, seed: 21, date: options.date, port: 0, ...options.sim });
  const stateDir = await mkdtemp(path.join(tmpdir(), "projintel-sim-collect-"));
  const db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  const github = {
    topics: [...TOPIC_VOCABULARY],
    ...(options.restBudget === undefined ? {} : { restBudget: options.restBudget }),
  };
  const config = loadConfig({ overrides: { simUrl: sim.url, stateDir, github } });
  let nights = 0;
  return {
    sim,
    db,
    stateDir,
    config,
    async night(sources) {
      if (nights++ > 0) await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
      const { date } = (await (await fetch(`${sim.url}/_sim/clock`)).json()) as { date: string };
      const report = await collect({
        config,
        db,
        logger: silentLogger,
        runDate: date,
        stateDir,
        sleep: async () => {},
        sources,
      });
      return { date, report };
    },
    async close() {
      await closeDiscarded(db);
      await sim.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Closes a test's warehouse that is deleted next, without the checkpoint DuckDB otherwise writes at shutdown (the
 * write-ahead log folded into the file, then synced): no one opens that file again.
 */
export async function closeDiscarded(db: Db): Promise<void> {
  await db.run("PRAGMA disable_checkpoint_on_shutdown");
  db.close();
}
