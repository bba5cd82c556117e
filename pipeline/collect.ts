// The collect stage: run every source in order, save what each fetches as batch files, load a source's
// batches into its raw_* tables once it has finished, and report per source. A failed source is reported
// and its rows for the day stay absent (scoring carries the previous day forward); the others go on.
import path from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { type Clock, systemClock } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import { type Db, runSqlFile } from "../core/db.ts";
import { AppError, describeError, inStage } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { startProgress } from "../core/progress.ts";
import { openBatchStore } from "./collect/batches.ts";
import { fileEtagStore } from "./collect/etag-store.ts";
import { createHttpClient, type HttpClient } from "./collect/http.ts";
import { loadBatches, RAW_DDL_DIR } from "./collect/load.ts";
import { openQuarantine, zodIssues } from "./collect/quarantine.ts";
import { type Shard, shardLabel } from "./schedule/shards.ts";
import { SOURCES } from "./sources/index.ts";
import type { CollectContext, History, RepoRef, Source } from "./sources/types.ts";
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
  /** Batches given up in this invocation (malformed answers, quarantined); the next invocation retries them. */
  batches_deferred: number;
  /** Entities skipped in this invocation: deleted or unknown (404, NOT_FOUND), or not linked to the repository. */
  skipped: number;
  /** Malformed payloads set aside under <stateDir>/quarantine/<run_date>/<source>/ in this invocation. */
  quarantined: number;
  duration_ms: number;
  /** Rows of the run date per raw table of the source (a source may own several tables). */
  table_rows: Record<string, number>;
  error?: string;
}

export interface CollectReport {
  run_date: string;
  /** The collection shard this run was ("2-of-3"); absent for a whole night. */
  shard?: string;
  /** Repositories tracked in this run: discovered now, or (GitHub failed) those of the previous run. */
  repos_total: number;
  /** Repositories whose GitHub row of the run date was fetched (in this invocation or a resumed one). */
  repos_refreshed: number;
  /** Tracked repositories without a fresh row: scoring carries their previous values forward. */
  repos_stale: number;
  /** HTTP requests per source in this invocation (retries included). */
  requests: Record<string, number>;
  /** GitHub GraphQL rate-limit points spent in this invocation. */
  github_graphql_points: number;
  /** Of those, the points spent on discovery searches (the rest went to repository details). */
  github_graphql_points_discovery: number;
  /** GitHub REST requests in this invocation (star history and activity; equals `requests.github_rest`). */
  github_rest_requests: number;
  /** Repositories due for REST activity tonight that the REST budget did not reach (last values kept). */
  github_activity_stale: number;
  /** Malformed payloads quarantined in this invocation, all sources. */
  quarantined: number;
  sources: SourceReport[];
  /** Wall time of the whole collect; each source's is in its report. */
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
  /** Collect one shard of the night (pipeline/schedule/shards.ts); the whole night by default. */
  shard?: Shard;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rows of the latest run before `runDate` in raw_github_repos (0 when there is none, or no table yet). */
async function previousRepos(db: Db, runDate: string): Promise<number> {
  const [table] = await db.all<{ n: number | bigint }>(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'raw_github_repos'",
  );
  if (Number(table?.n ?? 0) === 0) return 0;
  const [row] = await db.all<{ n: number | bigint }>(
    "SELECT count(*) AS n FROM raw_github_repos WHERE run_date = (SELECT max(run_date) FROM raw_github_repos WHERE run_date < ?::DATE)",
    [runDate],
  );
  return Number(row?.n ?? 0);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The warehouse's earlier runs, for sources that plan by history (see History in sources/types.ts). */
function warehouseHistory(db: Db, runDate: string, exclusive: LimitFunction): History {
  return {
    latest: (table, key, columns, keys, options = {}) =>
      exclusive(async () => {
        const { withinDays } = options;
        const names = [key, ...columns.filter((c) => c !== key)];
        for (const name of [table, ...names]) {
          if (!IDENTIFIER.test(name)) throw new AppError(`History refuses the column name "${name}".`);
        }
        if (keys?.length === 0) return [];
        // The DDL creates a missing table and adds columns introduced since the warehouse was made.
        await runSqlFile(db, path.join(RAW_DDL_DIR, `${table}.sql`));
        const types = new Map(
          (await db.all<{ column_name: string; column_type: string }>(`DESCRIBE ${table}`)).map((c) => [
            c.column_name,
            c.column_type,
          ]),
        );
        const format = { DATE: "%Y-%m-%d", TIMESTAMP: "%Y-%m-%dT%H:%M:%SZ" } as Record<string, string>;
        const select = names
          .map((n) => {
            const pattern = format[types.get(n) ?? ""];
            return pattern ? `strftime(${n}, '${pattern}') AS ${n}` : n;
          })
          .join(", ");
        const only = keys ? ` AND ${key} IN (${keys.map(() => "?").join(", ")})` : "";
        const recent =
          withinDays === undefined ? "" : ` AND run_date >= ?::DATE - INTERVAL ${Math.floor(withinDays)} DAY`;
        return db.all(
          `SELECT ${select} FROM ${table} WHERE run_date < ?::DATE${recent}${only} QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY run_date DESC) = 1 ORDER BY ${key}`,
          [runDate, ...(withinDays === undefined ? [] : [runDate]), ...(keys ?? [])],
        );
      }),
  };
}

async function reposOfRun(db: Db, runDate: string): Promise<RepoRef[]> {
  return db.all<RepoRef>(
    "SELECT node_id, full_name, owner, name, coalesce(details_as_of = run_date, false) AS full_refresh FROM raw_github_repos WHERE run_date = ?::DATE ORDER BY full_name",
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
  // ETags persist across runs, so an unchanged resource costs a free 304 the next night.
  const etags = fileEtagStore(statePaths({ stateDir: options.stateDir }).etags);
  const http = options.http ?? createHttpClient({ ...config.http, clock, sleep, logger, etags });
  const batches = openBatchStore(options.stateDir, runDate);
  // An invocation killed mid-write leaves its temp file behind; the batch itself is fetched again.
  const leftovers = await batches.removeLeftovers();
  if (leftovers > 0) logger.info("collect: removed half-written batch files", { files: leftovers });
  const quarantine = openQuarantine(options.stateDir, runDate, () => clock.now());
  const urls = sourceUrls(config);
  // One DuckDB connection serves every source: its reads and loads take turns (a load is a transaction).
  const exclusive = pLimit(1);
  const history = warehouseHistory(db, runDate, exclusive);
  let points = 0;
  let reposTotal: number | undefined;
  let discoveryPoints = 0;
  let activityStale = 0;
  const restBefore = http.stats().bySource.github_rest?.requests ?? 0;

  // The repositories of the run, read once GitHub has loaded them and shared by every source that needs them.
  let repos: Promise<RepoRef[]> | undefined;
  const trackedRepos = () => {
    repos ??= exclusive(() => reposOfRun(db, runDate));
    return repos;
  };

  async function runSource(
    source: Source,
    needs: readonly (SourceReport | undefined)[],
  ): Promise<SourceReport> {
    const sourceStarted = performance.now();
    const requestsBefore = http.stats().bySource[source.name]?.requests ?? 0;
    const report: SourceReport = {
      source: source.name,
      status: "ok",
      requests: 0,
      rows: 0,
      batches_fetched: 0,
      batches_resumed: 0,
      batches_deferred: 0,
      skipped: 0,
      quarantined: 0,
      duration_ms: 0,
      table_rows: {},
    };
    const log = logger.child({ source: source.name, run_date: runDate });
    try {
      const unmet = source.needs.filter((_, i) => needs[i]?.status !== "ok");
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
        history,
        repos: source.needs.includes("github") ? await trackedRepos() : [],
        ...(options.shard ? { shard: options.shard } : {}),
        count(what, n = 1) {
          if (what === "skipped") report.skipped += n;
          else if (what === "repos_total") reposTotal = (reposTotal ?? 0) + n;
          else if (what === "graphql_points_discovery") discoveryPoints += n;
          else if (what === "activity_stale") activityStale += n;
          else points += n;
        },
        async quarantine(url, payload, error) {
          const file = await quarantine.put({ source: source.name, url, issues: zodIssues(error), payload });
          report.quarantined++;
          log.warn("payload quarantined", { url, file, issue: error.issues[0]?.message });
        },
      };
      const progress = startProgress(log, `collect:${source.name}`, undefined);
      for await (const item of source.collect(ctx)) {
        if ("resumed" in item) report.batches_resumed++;
        else if ("deferred" in item) {
          report.batches_deferred++;
          log.warn("batch deferred", { batch: item.id, reason: item.reason });
        } else {
          await batches.write(source.name, item.id, item.rows);
          report.batches_fetched++;
        }
        progress.tick();
      }
      const targets = await Promise.all(
        source.tables.map(async (table) => ({ table, files: await batches.files(source.name, `${table}.`) })),
      );
      const loaded = await exclusive(() => loadBatches(db, runDate, targets));
      report.rows = loaded.reduce((sum, t) => sum + t.rows, 0);
      report.table_rows = Object.fromEntries(loaded.map((t) => [t.table, t.rows]));
      progress.done({ rows: report.rows, skipped: report.skipped });
    } catch (error) {
      const failure = inStage(`collect:${source.name}`, error);
      report.status = "failed";
      report.error = describeError(failure);
      log.error(`collect:${source.name} failed`, { error: report.error, kind: failure.kind });
    }
    report.requests = (http.stats().bySource[source.name]?.requests ?? 0) - requestsBefore;
    report.duration_ms = Math.round(performance.now() - sourceStarted);
    return report;
  }

  // Each source starts as soon as the sources it needs have finished, so independent ones run side by side
  // (each against its own host, within its own concurrency limit); a need outside this run counts as unmet.
  const running = new Map<string, Promise<SourceReport>>();
  for (const source of sources) {
    const needs = Promise.all(source.needs.map((need) => running.get(need) ?? Promise.resolve(undefined)));
    running.set(
      source.name,
      needs.then((reports) => runSource(source, reports)),
    );
  }
  const reports = await Promise.all(
    sources.map((source) => running.get(source.name) as Promise<SourceReport>),
  );

  if (!options.http) http.close();
  const github = reports.find((r) => r.source === "github");
  const refreshed = github?.status === "ok" ? (github.table_rows.raw_github_repos ?? 0) : 0;
  const total =
    github?.status === "ok" && reposTotal !== undefined ? reposTotal : await previousRepos(db, runDate);
  return {
    run_date: runDate,
    ...(options.shard ? { shard: shardLabel(options.shard) } : {}),
    repos_total: Math.max(total, refreshed),
    repos_refreshed: refreshed,
    // Repositories skipped as deleted or not found are gone, not stale.
    repos_stale: Math.max(0, total - refreshed - (github?.status === "ok" ? github.skipped : 0)),
    requests: Object.fromEntries(reports.map((r) => [r.source, r.requests])),
    github_graphql_points: points,
    github_graphql_points_discovery: discoveryPoints,
    github_rest_requests: (http.stats().bySource.github_rest?.requests ?? 0) - restBefore,
    github_activity_stale: activityStale,
    quarantined: reports.reduce((sum, r) => sum + r.quarantined, 0),
    sources: reports,
    duration_ms: Math.round(performance.now() - started),
  };
}
