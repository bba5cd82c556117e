// The limits of POST /api/v1/query, named once: the shim enforces them, the route's OpenAPI description and the
// methodology quote them from here. A query is judged by its wall time from arrival (queueing included), its rows and bytes,
// the memory of the worker process it runs in, and how many of its caller's queries are in flight.

import { MAX_QUERY_PARAMS } from "../../schemas/bodies.ts";

export interface QueryServiceLimits {
  deadlineMs: number;
  maxRows: number;
  maxBytes: number;
  maxParams: number;
  workers: number;
  lightWorkers: number;
  lightSliceMs: number;
  heavyMarkMs: number;
  usageHalfLifeMs: number;
  threadsPerWorker: number;
  perCaller: number;
  perAddress: number;
  maxQueued: number;
  duckdbMemory: string;
  workerRssBytes: number;
  workerHeapMb: number;
  killGraceMs: number;
  startTimeoutMs: number;
  rssPollMs: number;
  workerNice: number;
}

export const QUERY_LIMITS: Readonly<QueryServiceLimits> = {
  /**
   * Wall time from the request's arrival (time queued behind other queries included) to the last row; then
   * interrupted, then killed. A query that arrives while no worker has started yet is timed from the first one ready:
   * a cold start is the server's cost, not the caller's.
   */
  deadlineMs: 10_000,
  /** Rows returned at most; more set meta.truncated. */
  maxRows: 1_000,
  /** Bytes (UTF-8) of the answer as JSON at most, column names and types included; more rows set meta.truncated. */
  maxBytes: 1_000_000,
  /** Positional parameters (? or $n) a query may take (the body's schema holds the same cap). */
  maxParams: MAX_QUERY_PARAMS,
  /** General worker processes: with the light ones, at most this many queries run at once on the whole server. */
  workers: 2,
  /**
   * Worker processes kept for light queries: they take only queries of addresses none of whose queries ran past
   * lightSliceMs within heavyMarkMs, each for at most lightSliceMs, addresses whose queries finished within it first;
   * so a `SELECT count(*)` is answered within about a slice while heavy queries from many addresses hold every general
   * worker (issue 35: 50 such addresses).
   */
  lightWorkers: 1,
  /** How long a query may run on a light worker; past it, it waits for a general worker with the time it has left. */
  lightSliceMs: 1_000,
  /** How long an address whose query ran past lightSliceMs (on any worker) is kept off the light workers. */
  heavyMarkMs: 300_000,
  /** Half-life of an address's worker time used, for the queue's order. */
  usageHalfLifeMs: 30_000,
  /** DuckDB threads of each worker. */
  threadsPerWorker: 2,
  /** Queries of one caller running or queued at once; one more is refused with 429. */
  perCaller: 2,
  /**
   * Queries from one client address running or queued at once, over all its keys (an address may create several):
   * one more is refused with 429, so one address cannot fill the queue for everyone else.
   */
  perAddress: 4,
  /** Queries waiting for a worker at most; one more is refused with 503. */
  maxQueued: 16,
  /** DuckDB's memory_limit in a worker: an operator needing more fails with out-of-memory. */
  duckdbMemory: "512MB",
  /** The worker's whole resident memory (DuckDB, V8 and strings a result holds); over it, it is killed. */
  workerRssBytes: 1024 * 1024 * 1024,
  /** The worker's V8 heap (--max-old-space-size), in MiB: a result too big for it ends the worker. */
  workerHeapMb: 384,
  /** After an interrupt, how long a worker may take to stop before it is killed. */
  killGraceMs: 500,
  /** How long a worker may take to load DuckDB and open the database before it is killed as a failed start. */
  startTimeoutMs: 60_000,
  /** How often a busy worker's resident memory is read. */
  rssPollMs: 50,
  /** Scheduling priority (nice) of the workers: a heavy query yields the CPU to the shim's own requests. */
  workerNice: 10,
};

/** The limits in words, for the route's description and the methodology. */
export function describeQueryLimits(limits: QueryServiceLimits = QUERY_LIMITS): string {
  const mib = Math.round(limits.workerRssBytes / 1024 / 1024);
  return [
    `A query has ${limits.deadlineMs / 1000} seconds from its arrival, time spent waiting for a busy worker`,
    "included (while the server is still starting its workers, from the first one ready);",
    "past it, the query is interrupted (and its worker process killed if it does not stop within",
    `${limits.killGraceMs} ms) and the answer is 504 query_timeout; a query still waiting for a worker at its deadline`,
    "is not run and the answer is 503 unavailable with Retry-After.",
    `At most ${limits.maxRows.toLocaleString("en-US")} rows and ${limits.maxBytes.toLocaleString("en-US")} bytes`,
    "of answer as JSON (UTF-8, column names and types included) are returned; meta.truncated says a cap cut the",
    "rows, and a query whose columns alone are larger is refused with 400 query_rejected.",
    `Each query runs in one of ${limits.workers + limits.lightWorkers} worker processes with ${limits.duckdbMemory} of DuckDB memory`,
    `and ${mib} MiB in all; a query needing more is stopped with 400 query_rejected.`,
    `A caller may have ${limits.perCaller} queries running or waiting at once, and one client address`,
    `${limits.perAddress} over all its keys (one more is 429); the server holds at most ${limits.maxQueued} waiting`,
    "queries (one more is 503, unless another address holds more of them: its newest gives its place up).",
    "Waiting queries are served by address (IPv6 by /64), not by arrival: the address with the fewest queries",
    `running, then the least worker time used lately (halving every ${limits.usageHalfLifeMs / 1000} s), goes first.`,
    `Of the workers, ${limits.lightWorkers} (light) take only queries of addresses none of whose queries ran past`,
    `${limits.lightSliceMs / 1000} s in the last ${limits.heavyMarkMs / 60_000} minutes, for at most`,
    `${limits.lightSliceMs / 1000} s each; a query past that waits for another worker with the time it has left.`,
    "The statement must be one SELECT or WITH … SELECT, as DuckDB's own parser reads it, with up to",
    `${limits.maxParams} positional parameters (? or $1) given as scalars in params.`,
    "It cannot read files or URLs, attach databases, install or load extensions, change settings,",
    "or call functions that show the server's files, settings or environment (read_blob, glob, query,",
    "duckdb_databases, duckdb_settings, current_setting, pragma_* and the like), nor macros or table functions",
    "that read a table named by text (query_table, histogram, histogram_values); such queries are refused with",
    "400 query_rejected, which names the reason and never echoes the SQL.",
  ].join(" ");
}
