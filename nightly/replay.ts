// Replays simulated nights: run the nightly job for the simulator's date, advance its clock a day, and again, so
// that history, star deltas and lifecycle transitions exist and can be tested. Only the simulator's clock moves:
// every night is collected over real HTTP exactly as a scheduled run would be.
import type { Config } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import type { Logger } from "../core/log.ts";
import { simClock } from "../pipeline/sim-clock.ts";
import type { Source } from "../pipeline/sources/types.ts";
import type { RunManifest } from "./manifest.ts";
import { runNightly } from "./run.ts";

export interface ReplayOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** Nights to run: the simulator's current date, then one more per day. */
  nights: number;
  /** Publish a release every night instead of after the last one only. */
  publishEvery?: boolean;
  /**
   * Score every night in full (each writes what a published night writes to the history, its warehouse snapshot
   * included) and publish none, the last neither: for tests of the state, which read no release.
   */
  unpublished?: boolean;
  /** Sources of every night but the last; the last always collects all of them. */
  earlierSources?: readonly Source[];
  /** Config of every night but the last (e.g. a smaller REST budget); the last one uses `config`. */
  earlierConfig?: Config;
  force?: boolean;
  /** Stops the replay between nights (never inside one): a Ctrl-C while the demo fills its history. */
  signal?: AbortSignal;
  /** Called after each night, e.g. to count nights on a terminal. */
  onNight?: (night: ReplayReport["nights"][number], done: number) => void;
}

export interface ReplayReport {
  first: string;
  last: string;
  nights: Array<{ run_date: string; status: RunManifest["status"]; duration_ms: number }>;
  duration_ms: number;
  /** Set when the signal stopped the replay before its last night. */
  stopped?: boolean;
}

export async function replayNights(options: ReplayOptions): Promise<ReplayReport> {
  const { config, db, logger, nights } = options;
  const started = performance.now();
  const report: ReplayReport = { first: "", last: "", nights: [], duration_ms: 0 };
  // the simulator of config.simUrl: its clock gives each night's date and moves on between nights
  let date = await simClock(config);
  report.first = date;
  for (let night = 1; night <= nights; night++) {
    if (options.signal?.aborted) {
      report.stopped = true;
      break;
    }
    if (night > 1) date = await simClock(config, 1);
    const last = night === nights;
    const manifest = await runNightly({
      config: last ? config : (options.earlierConfig ?? config),
      db,
      logger,
      runDate: date,
      force: options.force ?? false,
      publish: !options.unpublished && (last || (options.publishEvery ?? false)),
      ...(options.unpublished ? { scoreInFull: true } : {}),
      ...(last || !options.earlierSources ? {} : { sources: options.earlierSources }),
    });
    const duration = manifest.durations_ms?.total ?? 0;
    const done = { run_date: date, status: manifest.status, duration_ms: duration };
    report.nights.push(done);
    options.onNight?.(done, night);
    logger.info("replay: night done", {
      run_date: date,
      night,
      of: nights,
      status: manifest.status,
      ms: duration,
    });
  }
  report.last = report.nights.at(-1)?.run_date ?? "";
  report.duration_ms = Math.round(performance.now() - started);
  return report;
}
