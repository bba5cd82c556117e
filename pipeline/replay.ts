// Replays simulated nights: run the nightly job for the simulator's date, advance its clock a day, and again, so
// that history, star deltas and lifecycle transitions exist and can be tested. Only the simulator's clock moves:
// every night is collected over real HTTP exactly as a scheduled run would be.
import type { Config } from "./core/config.ts";
import type { Db } from "./core/db.ts";
import { AppError } from "./core/errors.ts";
import type { Logger } from "./core/log.ts";
import { type RunManifest, runNightly } from "./nightly.ts";
import type { Source } from "./sources/types.ts";

export interface ReplayOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** The simulator's base URL; its /_sim/clock and /_sim/advance endpoints drive the nights. */
  simUrl: string;
  /** Nights to run: the simulator's current date, then one more per day. */
  nights: number;
  /** Publish a release every night instead of after the last one only. */
  publishEvery?: boolean;
  /** Sources of every night but the last; the last always collects all of them. */
  earlierSources?: readonly Source[];
  /** Config of every night but the last (e.g. a smaller REST budget); the last one uses `config`. */
  earlierConfig?: Config;
  force?: boolean;
}

export interface ReplayReport {
  first: string;
  last: string;
  nights: Array<{ run_date: string; status: RunManifest["status"]; duration_ms: number }>;
  duration_ms: number;
}

async function simControl(simUrl: string, route: string, method: "GET" | "POST"): Promise<string> {
  const url = `${simUrl}/_sim/${route}`;
  let response: Response;
  try {
    response = await fetch(url, { method });
  } catch (error) {
    throw new AppError(`Cannot reach the simulator at ${simUrl}: ${(error as Error).message}.`, {
      hint: "Start it with `projintel sim`, or let `projintel replay` start one (leave out --sim).",
      cause: error,
    });
  }
  const body = (await response.json().catch(() => ({}))) as { date?: unknown };
  if (!response.ok || typeof body.date !== "string") {
    throw new AppError(
      `The simulator at ${simUrl} answered ${response.status} to ${method} /_sim/${route}.`,
      {
        hint: "Check that --sim points at a projintel simulator.",
      },
    );
  }
  return body.date;
}

export async function replayNights(options: ReplayOptions): Promise<ReplayReport> {
  const { config, db, logger, simUrl, nights } = options;
  const started = performance.now();
  const report: ReplayReport = { first: "", last: "", nights: [], duration_ms: 0 };
  let date = await simControl(simUrl, "clock", "GET");
  report.first = date;
  for (let night = 1; night <= nights; night++) {
    if (night > 1) date = await simControl(simUrl, "advance?days=1", "POST");
    const last = night === nights;
    const manifest = await runNightly({
      config: last ? config : (options.earlierConfig ?? config),
      db,
      logger,
      runDate: date,
      force: options.force ?? false,
      publish: last || (options.publishEvery ?? false),
      ...(last || !options.earlierSources ? {} : { sources: options.earlierSources }),
    });
    const duration = manifest.durations_ms?.total ?? 0;
    report.nights.push({ run_date: date, status: manifest.status, duration_ms: duration });
    logger.info("replay: night done", {
      run_date: date,
      night,
      of: nights,
      status: manifest.status,
      ms: duration,
    });
  }
  report.last = date;
  report.duration_ms = Math.round(performance.now() - started);
  return report;
}
