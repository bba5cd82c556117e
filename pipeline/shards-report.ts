// One collect report for a night collected as shards: the shards' reports (their done.json) added up, with the
// merged row counts (a repository found by the discovery of two shards is fetched by both and counted once).
import type { CollectReport, SourceReport } from "./collect.ts";
import type { ShardDone } from "./shards.ts";
import { SOURCES } from "./sources/index.ts";

type Counter =
  | "requests"
  | "batches_fetched"
  | "batches_resumed"
  | "batches_deferred"
  | "skipped"
  | "quarantined";
const COUNTERS: readonly Counter[] = [
  "requests",
  "batches_fetched",
  "batches_resumed",
  "batches_deferred",
  "skipped",
  "quarantined",
];

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** One source over every shard: failed when it failed in any, its rows the merged tables' rows. */
function combineSource(name: string, reports: readonly SourceReport[], tableRows: Record<string, number>) {
  const tables = SOURCES.find((s) => s.name === name)?.tables ?? [];
  const failed = reports.filter((r) => r.status !== "ok");
  const source: SourceReport = {
    source: name,
    status: failed.length > 0 ? "failed" : "ok",
    requests: 0,
    rows: sum(tables.map((t) => tableRows[t] ?? 0)),
    batches_fetched: 0,
    batches_resumed: 0,
    batches_deferred: 0,
    skipped: 0,
    quarantined: 0,
    // the shards run side by side: a source took as long as its slowest shard
    duration_ms: Math.max(0, ...reports.map((r) => r.duration_ms)),
    table_rows: Object.fromEntries(tables.map((t) => [t, tableRows[t] ?? 0])),
  };
  for (const counter of COUNTERS) source[counter] = sum(reports.map((r) => r[counter]));
  if (failed.length > 0) source.error = failed.map((r) => r.error).join(" | ");
  return source;
}

export function combineReports(
  runDate: string,
  done: readonly ShardDone[],
  tableRows: Record<string, number>,
): CollectReport {
  const reports = done.map((d) => d.collect);
  const total = (pick: (r: CollectReport) => number) => sum(reports.map(pick));
  const names = [...new Set(reports.flatMap((r) => r.sources.map((s) => s.source)))];
  const sources = names.map((name) =>
    combineSource(
      name,
      reports.flatMap((r) => r.sources.filter((s) => s.source === name)),
      tableRows,
    ),
  );
  const refreshed = tableRows.raw_github_repos ?? 0;
  // a new repository found by several shards is in each one's total and refreshed rows: count it once
  const duplicates = Math.max(0, total((r) => r.repos_refreshed) - refreshed);
  return {
    run_date: runDate,
    repos_total: total((r) => r.repos_total) - duplicates,
    repos_refreshed: refreshed,
    repos_stale: total((r) => r.repos_stale),
    requests: Object.fromEntries(sources.map((s) => [s.source, s.requests])),
    github_graphql_points: total((r) => r.github_graphql_points),
    github_graphql_points_discovery: total((r) => r.github_graphql_points_discovery),
    github_rest_requests: total((r) => r.github_rest_requests),
    github_activity_stale: total((r) => r.github_activity_stale),
    quarantined: total((r) => r.quarantined),
    sources,
    duration_ms: Math.max(0, ...reports.map((r) => r.duration_ms)),
  };
}
