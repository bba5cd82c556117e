// The nightly job, composed above the pipeline and publish layers: collect every source, score in SQL, publish a
// release — then write the run's manifest.
// Each stage returns a typed report; the manifest gathers them so a run can be audited after the fact. With a
// remote (a bucket), the night first restores the durable state from it and writes the new night's state back
// before publishing there (runRemoteNightly), so a run on an empty machine continues the history.
import path from "node:path";
import { type Config, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { describeError, inStage } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { collect } from "../pipeline/collect.ts";
import { removeHistoryLeftovers, writeHistory } from "../pipeline/history.ts";
import { publishPublicDb } from "../pipeline/public-db.ts";
import { score } from "../pipeline/score.ts";
import type { Source } from "../pipeline/sources/types.ts";
import { type PullReport, pullState, pushState } from "../pipeline/state/sync.ts";
import { readPointer } from "../publish/layout.ts";
import { publishRelease } from "../publish/release.ts";
import { type RunManifest, writeManifest } from "./manifest.ts";

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
  /**
   * Score in full (the datasets, the warehouse snapshot) though the night is not published: a replay that tests the
   * state alone. Default: only a published night is scored in full.
   */
  scoreInFull?: boolean;
  /**
   * The remote the night's state is pushed to, and its public database and release published to (nightly
   * --remote); the state was pulled from it before the warehouse was opened (runRemoteNightly).
   */
  remote?: { storage: Storage; pulled?: PullReport; started?: { at: string; ms: number } };
}

function durations(manifest: RunManifest, started: number): NonNullable<RunManifest["durations_ms"]> {
  return {
    ...(manifest.state_pull ? { state_pull: manifest.state_pull.duration_ms } : {}),
    ...(manifest.collect ? { collect: manifest.collect.duration_ms } : {}),
    ...(manifest.score ? { score: manifest.score.duration_ms } : {}),
    ...(manifest.history ? { history: manifest.history.duration_ms } : {}),
    ...(manifest.state_push ? { state_push: manifest.state_push.duration_ms } : {}),
    ...(manifest.public_db ? { public_db: manifest.public_db.duration_ms } : {}),
    ...(manifest.publish && "duration_ms" in manifest.publish
      ? { publish: Number(manifest.publish.duration_ms) }
      : {}),
    total: Math.round(performance.now() - started),
  };
}

export async function runNightly(options: NightlyOptions): Promise<RunManifest> {
  const { config, db, logger, runDate, remote } = options;
  const started = remote?.started ?? { at: new Date().toISOString(), ms: performance.now() };
  const manifest: RunManifest = {
    run_date: runDate,
    started_at: started.at,
    finished_at: "",
    status: "ok",
    ...(remote?.pulled ? { state_pull: remote.pulled } : {}),
  };
  let stage = "collect";
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
    stage = "score";
    const historyOnly = !(options.publish ?? true) && !options.scoreInFull;
    manifest.score = await score({ db, runDate, logger, historyOnly });
    stage = "history";
    // a night scored only for its history leaves the tables appended to night by night (releases, contributors)
    // behind: no warehouse snapshot of it (state-snapshot.ts)
    manifest.history = await writeHistory({
      db,
      root: paths.history,
      runDate,
      logger,
      snapshot: !historyOnly,
    });
    if (remote) {
      stage = "state push";
      manifest.state_push = await pushState({
        storage: remote.storage,
        stateRoot: paths.root,
        logger,
        concurrency: config.s3.concurrency,
      });
    }
    if (options.publish ?? true) {
      stage = "publish";
      const target = remote?.storage ?? createLocalStorage(paths.root);
      const served = await readPointer(target);
      manifest.public_db = await publishPublicDb({
        db,
        stateRoot: paths.root,
        runDate,
        keepRunDates: served ? [served.run_date] : [],
        ...(remote ? { target: remote.storage } : {}),
      });
      manifest.publish = await publishRelease({
        config,
        db,
        logger,
        force: options.force ?? false,
        ...(remote ? { storage: remote.storage } : {}),
      });
    }
  } catch (error) {
    manifest.status = "failed";
    manifest.error = describeError(inStage(stage, error));
    await finish(options, manifest, started.ms);
    throw inStage(stage, error);
  }
  await finish(options, manifest, started.ms);
  return manifest;
}

/** Writes the manifest; with a remote, also pushes it (state/runs/<date>/manifest.json), failed nights' too. */
async function finish(
  options: Pick<NightlyOptions, "config" | "logger" | "reportFile" | "remote">,
  manifest: RunManifest,
  startedMs: number,
): Promise<void> {
  manifest.finished_at = new Date().toISOString();
  manifest.durations_ms = durations(manifest, startedMs);
  const file = await writeManifest(options.config, manifest, options.reportFile);
  if (!options.remote) return;
  const rel = path.relative(statePaths(options.config).root, file).split(path.sep).join("/");
  try {
    await pushState({
      storage: options.remote.storage,
      stateRoot: statePaths(options.config).root,
      logger: options.logger,
      concurrency: options.config.s3.concurrency,
      only: [rel],
    });
  } catch (error) {
    // the report stays in the state folder; the night's outcome is what its stages did, not this upload
    options.logger.error("state: the run report could not be pushed", { error: describeError(error) });
  }
}

/**
 * A night against a remote: restores the durable state from it into the state folder (rebuilding a missing
 * warehouse from the history) before the warehouse is opened, then runs the night, which pushes the new state
 * and publishes to the remote. A pull that fails is a failed night with its manifest, like any other stage.
 */
export async function runRemoteNightly(
  options: Omit<NightlyOptions, "db" | "remote"> & { storage: Storage; openDb: () => Promise<Db> },
): Promise<RunManifest> {
  const { config, logger, storage } = options;
  const started = { at: new Date().toISOString(), ms: performance.now() };
  let pulled: PullReport;
  try {
    pulled = await pullState({
      storage,
      stateRoot: statePaths(config).root,
      logger,
      concurrency: config.s3.concurrency,
      // the snapshot and the nights since: the publish takes the older nights from the previous release
      recent: true,
    });
  } catch (error) {
    const manifest: RunManifest = {
      run_date: options.runDate,
      started_at: started.at,
      finished_at: "",
      status: "failed",
      error: describeError(inStage("state pull", error)),
    };
    await finish({ ...options, remote: { storage } }, manifest, started.ms);
    throw inStage("state pull", error);
  }
  const db = await options.openDb();
  try {
    return await runNightly({ ...options, db, remote: { storage, pulled, started } });
  } finally {
    db.close();
  }
}
