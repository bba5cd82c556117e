// One query worker process as the shim sees it: forked with a capped V8 heap, given one query at a time, and
// stopped at the query's deadline — asked to interrupt, then killed if it has not answered within the grace —
// or at once when its resident memory passes the cap (read from /proc while it works).
import { type ChildProcess, fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { QueryError, type QueryLimits, type QueryParam, type QueryResult } from "../../core/query/index.ts";
import type { QueryServiceLimits } from "../../core/query/limits.ts";
import type { FromWorker, ToWorker, WorkerErrorCode, WorkerSettings } from "./protocol.ts";

const ENTRY = new URL("./worker-entry.mjs", import.meta.url);

/** A query handed to a worker: the public database file and what to run on it. */
export interface WorkerJob {
  file: string;
  sql: string;
  params: QueryParam[];
  /** How the answer's bytes are counted against the byte cap (core/query QueryLimits.bytesAs); JSON by default. */
  bytesAs?: QueryLimits["bytesAs"];
}

/** A failure the worker reported that is not the caller's query (the public database cannot be opened). */
export class WorkerUnavailableError extends Error {}

export interface QueryWorker {
  readonly pid: number | undefined;
  /** False once the process is killed or gone: it takes no more queries. */
  readonly alive: boolean;
  /** Resolves once the worker has loaded its code and takes queries. */
  readonly ready: Promise<void>;
  /** Runs `job`, settling by `deadlineAt` (epoch ms) plus the kill grace at the latest. */
  run(job: WorkerJob, deadlineAt: number): Promise<QueryResult>;
  /**
   * Opens the public database `file` ahead of any query on it, so that a query's time is its own (opening takes a
   * second or more on a busy machine); a query run meanwhile waits for it in the worker. Rejects with
   * WorkerUnavailableError when it cannot be opened.
   */
  open(file: string): Promise<void>;
  /** Kills the process; resolves once it has exited. */
  kill(): Promise<void>;
}

export function startWorker(limits: QueryServiceLimits, onExit: () => void): QueryWorker {
  const settings: WorkerSettings = { memoryLimit: limits.duckdbMemory, threads: limits.threadsPerWorker };
  const child: ChildProcess = fork(ENTRY, [JSON.stringify(settings)], {
    execArgv: [`--max-old-space-size=${limits.workerHeapMb}`],
    serialization: "json",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  lowerPriority(child.pid, limits.workerNice);
  let sequence = 0;
  let settle: ((message: FromWorker | { type: "exit" }) => void) | undefined;
  /** An open ahead answers on its own: a query may be handed over while it is under way (and waits for it). */
  let settleOpen: ((message: FromWorker | { type: "exit" }) => void) | undefined;
  let exited = false;
  let killed = false;
  const ready = new Promise<void>((resolve, reject) => {
    // a worker that never gets ready is killed: its exit counts as a failed start, so nothing waits on it forever
    const startTimer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, limits.startTimeoutMs);
    child.once("message", () => {
      clearTimeout(startTimer);
      resolve();
    });
    child.once("exit", () => {
      clearTimeout(startTimer);
      reject(new WorkerUnavailableError("The query worker stopped while starting."));
    });
  });
  ready.catch(() => {});
  child.on("message", (message: FromWorker) => {
    settle?.(message);
    settleOpen?.(message);
  });
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.on("exit", () => {
    exited = true;
    settle?.({ type: "exit" });
    settleOpen?.({ type: "exit" });
    onExit();
  });
  const post = (message: ToWorker) => {
    if (child.connected) child.send(message);
  };

  return {
    pid: child.pid,
    get alive() {
      return !exited && !killed;
    },
    ready,
    run(job, deadlineAt) {
      const id = ++sequence;
      return new Promise<QueryResult>((resolve, reject) => {
        let overMemory = false;
        let killTimer: NodeJS.Timeout | undefined;
        // Answered as soon as the kill is sent, not when the exit is reaped: the caller's time is up either way.
        const kill = () => {
          killed = true;
          child.kill("SIGKILL");
          settle?.({ type: "exit" });
        };
        const deadline = setTimeout(
          () => {
            post({ type: "interrupt", id });
            killTimer = setTimeout(kill, limits.killGraceMs);
          },
          Math.max(0, deadlineAt - Date.now()),
        );
        const watch = setInterval(() => {
          void residentBytes(child.pid).then((bytes) => {
            if (bytes > limits.workerRssBytes) {
              overMemory = true;
              kill();
            }
          });
        }, limits.rssPollMs);
        settle = (message) => {
          if (message.type === "ready" || ("id" in message && message.id !== id)) return;
          settle = undefined;
          clearTimeout(deadline);
          clearTimeout(killTimer);
          clearInterval(watch);
          if (message.type === "done") resolve(message.result);
          // the worker's own timer says the time it was given; the caller reads the documented deadline
          else if (message.type === "failed" && message.code === "query_timeout")
            reject(timeoutError(limits));
          else if (message.type === "failed")
            reject(workerError(message.code, message.message, message.hint));
          else if (overMemory) reject(memoryError(limits));
          else if (Date.now() >= deadlineAt) reject(timeoutError(limits));
          else reject(crashError(limits));
        };
        if (exited) return settle({ type: "exit" });
        const timeoutMs = Math.max(1, deadlineAt - Date.now());
        const { bytesAs, ...run } = job;
        post({
          type: "run",
          id,
          ...run,
          limits: { timeoutMs, maxRows: limits.maxRows, maxBytes: limits.maxBytes, bytesAs },
        });
      });
    },
    open(file) {
      const id = ++sequence;
      return new Promise<void>((resolve, reject) => {
        settleOpen = (message) => {
          if (message.type === "ready" || ("id" in message && message.id !== id)) return;
          settleOpen = undefined;
          if (message.type === "opened") resolve();
          else if (message.type === "failed") reject(new WorkerUnavailableError(message.message));
          else
            reject(new WorkerUnavailableError("The query worker stopped while opening the public database."));
        };
        if (exited) return settleOpen({ type: "exit" });
        post({ type: "open", id, file });
      });
    },
    kill() {
      killed = true;
      if (!exited) child.kill("SIGKILL");
      return gone;
    },
  };
}

/**
 * Lowers the worker's scheduling priority, so the event loop answering GETs from the release stays ahead of it.
 * Best effort: a platform or container that refuses priority changes leaves the worker at the shim's own.
 */
function lowerPriority(pid: number | undefined, nice: number): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, nice);
  } catch {
    // refused (EACCES/EPERM in some containers): the deadline and memory caps still hold
  }
}

/** A process's resident memory in bytes from /proc (Linux); 0 where /proc is missing or the process is gone. */
async function residentBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kib ? Number(kib) * 1024 : 0;
}

function workerError(code: WorkerErrorCode, message: string, hint: string | undefined): Error {
  if (code === "unavailable") return new WorkerUnavailableError(message);
  return new QueryError(code, message, hint);
}

function timeoutError(limits: QueryServiceLimits): QueryError {
  return new QueryError(
    "query_timeout",
    `The query ran past its ${limits.deadlineMs} ms deadline and was stopped.`,
    "Narrow it with WHERE, aggregate earlier, or add LIMIT.",
  );
}

function memoryError(limits: QueryServiceLimits): QueryError {
  const mib = Math.round(limits.workerRssBytes / 1024 / 1024);
  return new QueryError(
    "query_rejected",
    `The query needed more than the ${mib} MiB of memory a query may use and was stopped.`,
    "Aggregate earlier, select fewer or shorter columns, or add LIMIT.",
  );
}

function crashError(limits: QueryServiceLimits): QueryError {
  return new QueryError(
    "query_rejected",
    `The query stopped its worker process, most often by building a value too large for the ${limits.workerHeapMb} MiB it may hold.`,
    "Select fewer or shorter values, or aggregate earlier.",
  );
}
