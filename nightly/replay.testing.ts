// Tests over replayed nights: the simulator (150 repositories, seed 5, its world anchored at `start` and its clock at
// `from`), a config on a state folder pointing at it, and `nights` nights replayed into that folder's warehouse
// (replay.ts).
import { mkdir } from "node:fs/promises";
import { type Config, loadConfig, statePaths } from "../core/config.ts";
import { openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { type ReplayReport, replayNights } from "./replay.ts";

export interface ReplayedWorld {
  sim: SimServer;
  config: Config;
  report: ReplayReport;
}

export async function replayWorld(options: {
  stateDir: string;
  /** The world's first day (its anchor). */
  start: string;
  /**
   * The simulator's date at the first night replayed (`start` by default): a later date goes on from a state folder
   * holding the nights before it, replayed from `start` (the world is a function of its anchor and the date).
   */
  from?: string;
  nights: number;
  /** The GitHub token's name (each test its own, so their quotas never meet). */
  token: string;
  /** Score and publish every night in full, not only the last (a night scored in full may write a snapshot). */
  publishEvery?: boolean;
  /** Score every night in full and publish none (replay.ts): a test of the state, which reads no release. */
  unpublished?: boolean;
}): Promise<ReplayedWorld> {
  const { start } = options;
  const sim = await startSimServer({
    repos: 150,
    seed: 5,
    date: options.from ?? start,
    anchor: start,
    port: 0,
    logger: silentLogger,
  });
  const config = loadConfig({
    env: {},
    overrides: {
      stateDir: options.stateDir,
      simUrl: sim.url,
      // commit statistics asked again at once: the simulator computes them at once, and GitHub's 5-s pause before
      // asking again would only wait, once a night
      github: { tokens: [options.token], restBudget: 150, statsRetryMs: 0 },
    },
  });
  await mkdir(statePaths(config).root, { recursive: true });
  const db = await openDb(statePaths(config).warehouse);
  try {
    const report = await replayNights({
      config,
      db,
      logger: silentLogger,
      nights: options.nights,
      ...(options.publishEvery ? { publishEvery: true } : {}),
      ...(options.unpublished ? { unpublished: true } : {}),
    });
    return { sim, config, report };
  } catch (error) {
    await sim.close();
    throw error;
  } finally {
    db.close();
  }
}
