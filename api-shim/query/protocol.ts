// Messages between the shim and a query worker process over the IPC channel of child_process.fork.
import type { QueryLimits, QueryParam, QueryResult } from "../../core/query/index.ts";

/** What the worker needs to open its DuckDB instance; passed as its one argument, as JSON. */
export interface WorkerSettings {
  memoryLimit: string;
  threads: number;
}

export type ToWorker =
  | { type: "run"; id: number; file: string; sql: string; params: QueryParam[]; limits: QueryLimits }
  /** Open the public database `file` now, before any query on it (answered with opened or failed). */
  | { type: "open"; id: number; file: string }
  | { type: "interrupt"; id: number };

/** Codes a worker reports: the runner's own, or unavailable when the public database cannot be opened. */
export type WorkerErrorCode = "query_rejected" | "query_timeout" | "unavailable";

export type FromWorker =
  | { type: "ready" }
  | { type: "done"; id: number; result: QueryResult }
  | { type: "opened"; id: number }
  | { type: "failed"; id: number; code: WorkerErrorCode; message: string; hint?: string };
