// The nightly job: collect every source, score in SQL, publish a release — then write the run's manifest.
// Each stage returns a typed report; the manifest gathers them so a run can be audited after the fact.
import path from "node:path";
import { type Config, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { describeError, inStage } from "../core/errors.ts";
import { writeJsonAtomic } from "../core/files.ts";
import type { Logger } from "../core/log.ts";
import { createLocalStorage } from "../core/storage.ts";
import { readPointer } from "../publish/layout.ts";
import { type PublishReport, publishRelease } from "../publish/release.ts";
import { type CollectReport, collect } from "./collect.ts";
import { type HistoryReport, removeHistoryLeftovers, writeHistory } from "./history.ts";
import { type PublicDbReport, publishPublicDb } from "./public-db.ts";
import { type ScoreReport, score } from "./score.ts";
import type { Source } from "./sources/types.ts";

export interface RunManifest {
  run_date: string;
  started_at: string;
  finished_at: string;
  status: "ok" | "degraded" | "failed";
  error?: string;
  /** Wall time of each stage that ran, and of the whole run. */
  durations_ms?: {
    collect?: number;
    score?: number;
    history?: number;
    public_db?: number;
    publish?: number;
    total: number;
  };
  collect?: CollectReport;
  score?: ScoreReport;
  history?: HistoryReport;
  /** The public tables copied to their own DuckDB file, for the SQL endpoint and `projintel sql`. */
  public_db?: PublicDbReport;
  publish?: PublishReport;
}

export interface NightlyOptions {
  config: Config;
  db: Db;
  logger: Logger;
  runDate: string;
  force?: boolean;
  /** Extra copy of the manifest (--report-json). */
  reportFile?: string;
  /** The sources to collect; all of them by default. */
  sources?: readonly Source[];
  /**
   * Publish a release after scoring (default true). A replayed night may skip it, and then builds only what its
   * history needs (no datasets, no public database).
   */
  publish?: boolean;
}

export function manifestPath(config: Config, runDate: string): string {
  return path.join(statePaths(config).runs, runDate, "manifest.json");
}

/** Writes the manifest to the run folder and, when asked, to one more file. */
export async function writeManifest(
  config: Config,
  manifest: RunManifest,
  reportFile?: string,
): Promise<string> {
  const file = manifestPath(config, manifest.run_date);
  await writeJsonAtomic(file, manifest);
  if (reportFile) await writeJsonAtomic(path.resolve(reportFile), manifest);
  return file;
}

function durations(manifest: RunManifest, started: number): NonNullable<RunManifest["durations_ms"]> {
  return {
    ...(manifest.collect ? { collect: manifest.collect.duration_ms } : {}),
    ...(manifest.score ? { score: manifest.score.duration_ms } : {}),
    ...(manifest.history ? { history: manifest.history.duration_ms } : {}),
    ...(manifest.public_db ? { public_db: manifest.public_db.duration_ms } : {}),
    ...(manifest.publish && "duration_ms" in manifest.publish
      ? { publish: Number(manifest.publish.duration_ms) }
      : {}),
    total: Math.round(performance.now() - started),
  };
}

export async function runNightly(options: NightlyOptions): Promise<RunManifest> {
  const { config, db, logger, runDate } = options;
  const started = performance.now();
  const manifest: RunManifest = {
    run_date: runDate,
    started_at: new Date().toISOString(),
    finished_at: "",
    status: "ok",
  };
  try {
    const paths = statePaths(config);
    await removeHistoryLeftovers(paths.history);
    manifest.collect = await collect({
      config,
      db,
      logger,
      runDate,
      stateDir: paths.root,
      ...(options.sources ? { sources: options.sources } : {}),
    });
    if (manifest.collect.sources.some((s) => s.status !== "ok")) manifest.status = "degraded";
    manifest.score = await score({ db, runDate, logger, historyOnly: !(options.publish ?? true) });
    manifest.history = await writeHistory({ db, root: paths.history, runDate, logger });
    if (options.publish ?? true) {
      const served = await readPointer(createLocalStorage(paths.root));
      manifest.public_db = await publishPublicDb({
        db,
        stateRoot: paths.root,
        runDate,
        keepRunDates: served ? [served.run_date] : [],
      });
      manifest.publish = await publishRelease({ config, db, logger, force: options.force ?? false });
    }
  } catch (error) {
    const stage = manifest.history
      ? "publish"
      : manifest.score
        ? "history"
        : manifest.collect
          ? "score"
          : "collect";
    manifest.status = "failed";
    manifest.error = describeError(inStage(stage, error));
    manifest.finished_at = new Date().toISOString();
    manifest.durations_ms = durations(manifest, started);
    await writeManifest(config, manifest, options.reportFile);
    throw inStage(stage, error);
  }
  manifest.finished_at = new Date().toISOString();
  manifest.durations_ms = durations(manifest, started);
  await writeManifest(config, manifest, options.reportFile);
  return manifest;
}
