// The collect stage: run every source in order, save what each fetches as batch files, load a source's
// batches into its raw_* tables once it has finished, and report per source. A failed source is reported
// and its rows for the day stay absent (scoring carries the previous day forward); the others go on.
import { openBatchStore } from "./core/batches.ts";
import { type Clock, systemClock } from "./core/clock.ts";
import type { Config } from "./core/config.ts";
import type { Db } from "./core/db.ts";
import { AppError, describeError, inStage } from "./core/errors.ts";
import { createHttpClient, type HttpClient } from "./core/http.ts";
import { loadBatches } from "./core/load.ts";
import type { Logger } from "./core/log.ts";
import { startProgress } from "./core/progress.ts";
import { SOURCES } from "./sources/index.ts";
import type { CollectContext, RepoRef, Source } from "./sources/types.ts";
import { sourceUrls } from "./sources/urls.ts";

export interface SourceReport {
  source: string;
  status: "ok" | "failed";
  /** HTTP requests sent for this source in this invocation (retries included). */
  requests: number;
  /** Rows of the run date in the source's raw tables after loading (0 when failed). */
  rows: number;
  batches_fetched: number;
  /** Batches found already saved by an earlier, interrupted invocation for the same run date. */
  batches_resumed: number;
  /** Entities skipped in this invocation: deleted or unknown (404, NOT_FOUND), or not linked to the repository. */
  skipped: number;
  duration_ms: number;
  error?: string;
}

export interface CollectReport {
  run_date: string;
  sources: SourceReport[];
  /** GitHub GraphQL rate-limit points spent in this invocation. */
  github_graphql_points: number;
  duration_ms: number;
}

export interface CollectOptions {
  config: Config;
  db: Db;
  /** Defaults to a client built from config.http; closed at the end only when created here. */
  http?: HttpClient;
  logger: Logger;
  /** YYYY-MM-DD */
  runDate: string;
  /** The state folder; batches go under <stateDir>/runs/<runDate>/batches. */
  stateDir: string;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** The sources to run, in order; all of them by default. */
  sources?: readonly Source[];
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function reposOfRun(db: Db, runDate: string): Promise<RepoRef[]> {
  return db.all<RepoRef>(
    "SELECT node_id, full_name, owner, name FROM raw_github_repos WHERE run_date = ?::DATE ORDER BY full_name",
    [runDate],
  );
}

/** Each raw table belongs to one source: loading replaces the run date's rows of the whole table. */
function checkOwnership(sources: readonly Source[]): void {
  const owner = new Map<string, string>();
  for (const source of sources) {
    for (const table of source.tables) {
      const other = owner.get(table);
      if (other)
        throw new AppError(
          `${table} is written by both ${other} and ${source.name}; give each table one source.`,
        );
      owner.set(table, source.name);
    }
  }
}

export async function collect(options: CollectOptions): Promise<CollectReport> {
  const { config, db, logger, runDate } = options;
  const sources = options.sources ?? SOURCES;
  checkOwnership(sources);
  const started = performance.now();
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? realSleep;
  const http = options.http ?? createHttpClient({ ...config.http, clock, sleep, logger });
  const batches = openBatchStore(options.stateDir, runDate);
  const urls = sourceUrls(config);
  const reports: SourceReport[] = [];
  let points = 0;

  for (const source of sources) {
    const sourceStarted = performance.now();
    const requestsBefore = http.stats().bySource[source.name]?.requests ?? 0;
    const report: SourceReport = {
      source: source.name,
      status: "ok",
      requests: 0,
      rows: 0,
      batches_fetched: 0,
      batches_resumed: 0,
      skipped: 0,
      duration_ms: 0,
    };
    const log = logger.child({ source: source.name, run_date: runDate });
    try {
      const unmet = source.needs.filter(
        (need) => !reports.some((r) => r.source === need && r.status === "ok"),
      );
      if (unmet.length > 0) {
        throw new AppError(
          `${source.name} was not run: it needs ${unmet.join(", ")}, which did not succeed in this run.`,
          {
            kind: "transient",
            hint: `Fix ${unmet.join(", ")} and run collect again for ${runDate}; finished batches are kept.`,
          },
        );
      }
      const ctx: CollectContext = {
        config,
        urls,
        http,
        logger: log,
        clock,
        sleep,
        runDate,
        batches,
        repos: source.needs.includes("github") ? await reposOfRun(db, runDate) : [],
        count(what, n = 1) {
          if (what === "skipped") report.skipped += n;
          else points += n;
        },
      };
      const progress = startProgress(log, `collect:${source.name}`, undefined);
      for await (const item of source.collect(ctx)) {
        if ("resumed" in item) report.batches_resumed++;
        else {
          await batches.write(source.name, item.id, item.rows);
          report.batches_fetched++;
        }
        progress.tick();
      }
      const targets = await Promise.all(
        source.tables.map(async (table) => ({ table, files: await batches.files(source.name, `${table}.`) })),
      );
      const loaded = await loadBatches(db, runDate, targets);
      report.rows = loaded.reduce((sum, t) => sum + t.rows, 0);
      progress.done({ rows: report.rows, skipped: report.skipped });
    } catch (error) {
      const failure = inStage(`collect:${source.name}`, error);
      report.status = "failed";
      report.error = describeError(failure);
      log.error(`collect:${source.name} failed`, { error: report.error, kind: failure.kind });
    }
    report.requests = (http.stats().bySource[source.name]?.requests ?? 0) - requestsBefore;
    report.duration_ms = Math.round(performance.now() - sourceStarted);
    reports.push(report);
  }

  if (!options.http) http.close();
  return {
    run_date: runDate,
    sources: reports,
    github_graphql_points: points,
    duration_ms: Math.round(performance.now() - started),
  };
}
