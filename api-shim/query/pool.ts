// The query pool: a fixed number of worker processes, a FIFO queue in front of them, and the limits that keep
// one caller or one query from taking the server — queries per caller, queue length, and a deadline counted
// from arrival, so a query still queued at its deadline is cancelled there. A worker that dies is replaced. A query
// that arrives before any worker is ready (the pool starting) has its deadline counted from the first one ready.

import { type Logger, silentLogger } from "../../core/log.ts";
import { QueryError, type QueryResult } from "../../core/query/index.ts";
import { QUERY_LIMITS, type QueryServiceLimits } from "../../core/query/limits.ts";
import { type QueryWorker, startWorker, type WorkerJob, WorkerUnavailableError } from "./worker-process.ts";

/** Refused before running: the caller or its address has too many queries in flight, or the queue is full. */
export class QueryBusyError extends Error {
  constructor(
    readonly reason: "caller" | "address" | "queue",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Who runs a query: its quota key (a key's hash, or the address for an anonymous caller), and the client address it
 * came from, whose queries over all its keys are bounded too. A bare string is a caller with no address of its own.
 */
export type QueryCaller = string | { key: string; address?: string };

export interface QueryPool {
  /** Runs `job` for `caller`; rejects with QueryError, QueryBusyError or WorkerUnavailableError. */
  run(caller: QueryCaller, job: WorkerJob): Promise<QueryResult>;
  /** Starts the workers now rather than on the first query (or replaces killed ones); resolves once they take queries. */
  start(): Promise<void>;
  /** Process ids of the live workers (tests kill one to see it replaced). */
  pids(): number[];
  /** Queries handed to a worker and not yet answered, and queries waiting for one. */
  load(): { running: number; queued: number };
  close(): Promise<void>;
}

interface Waiting {
  job: WorkerJob;
  /** Unset while no worker has started yet: the deadline runs from the first one ready. */
  deadlineAt?: number;
  timer?: NodeJS.Timeout;
  resolve(result: QueryResult): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: QueryWorker;
  busy: boolean;
  started: boolean;
}

/** Workers in a row that exit before they are ready, after which the pool stops starting more. */
const MAX_START_FAILURES = 3;

export function createQueryPool(
  options: { limits?: Partial<QueryServiceLimits>; logger?: Logger } = {},
): QueryPool {
  const limits: QueryServiceLimits = { ...QUERY_LIMITS, ...options.limits };
  const logger = options.logger ?? silentLogger;
  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  const inFlight = { caller: new Map<string, number>(), address: new Map<string, number>() };
  let closed = false;
  let startFailures = 0;

  function spawn(): void {
    const slot: Slot = { busy: true, started: false, worker: startWorker(limits, () => replace(slot)) };
    slots.push(slot);
    slot.worker.ready.then(
      () => {
        slot.started = true;
        slot.busy = false;
        startFailures = 0;
        for (const waiting of queue) arm(waiting);
        dispatch();
      },
      () => {},
    );
  }

  function startAll(): void {
    if (slots.length > 0 || closed) return;
    startFailures = 0;
    for (let i = 0; i < limits.workers; i++) spawn();
  }

  function replace(slot: Slot): void {
    const index = slots.indexOf(slot);
    if (index !== -1) slots.splice(index, 1);
    if (closed) return;
    if (!slot.started && ++startFailures >= MAX_START_FAILURES) {
      logger.error("query workers fail to start; queries are refused", { failures: startFailures });
      if (slots.length === 0) {
        for (const waiting of queue.splice(0)) {
          clearTimeout(waiting.timer);
          waiting.reject(new WorkerUnavailableError("The query workers cannot start; the operator is told."));
        }
      }
      return;
    }
    logger.warn("query worker exited; starting another", { pid: slot.worker.pid ?? null });
    spawn();
  }

  /** Starts a waiting query's deadline (once): from its arrival, or from the first worker ready if none was. */
  function arm(waiting: Waiting, at = Date.now()): void {
    if (waiting.deadlineAt !== undefined) return;
    waiting.deadlineAt = at + limits.deadlineMs;
    // Still queued at the deadline: cancelled there, never handed to a worker.
    waiting.timer = setTimeout(() => {
      const index = queue.indexOf(waiting);
      if (index === -1) return;
      queue.splice(index, 1);
      waiting.reject(
        new QueryError(
          "query_timeout",
          `The query waited for a free worker past its ${limits.deadlineMs} ms deadline and was cancelled.`,
          "The server is busy with other queries; try again shortly.",
        ),
      );
    }, limits.deadlineMs);
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.busy || !slot.worker.alive) continue;
      const next = queue.shift();
      if (!next) return;
      clearTimeout(next.timer);
      slot.busy = true;
      slot.worker
        .run(next.job, next.deadlineAt ?? Date.now() + limits.deadlineMs)
        .catch((error: unknown) => {
          // the caller gets a plain 503; the operator needs the reason (a missing or unreadable public database)
          if (error instanceof WorkerUnavailableError) {
            logger.error("query worker cannot run queries", { error: error.message });
          }
          throw error;
        })
        .then(next.resolve, next.reject)
        .finally(() => {
          slot.busy = false;
          dispatch();
        });
    }
  }

  return {
    run(caller, job) {
      if (closed) return Promise.reject(new QueryBusyError("queue", "The query service is shutting down."));
      const { key, address } = typeof caller === "string" ? { key: caller, address: undefined } : caller;
      const mine = inFlight.caller.get(key) ?? 0;
      if (mine >= limits.perCaller) {
        return Promise.reject(
          new QueryBusyError(
            "caller",
            `You have ${mine} queries running or waiting, the most a caller may have; send the next when one has answered.`,
          ),
        );
      }
      const fromAddress = address === undefined ? 0 : (inFlight.address.get(address) ?? 0);
      if (fromAddress >= limits.perAddress) {
        return Promise.reject(
          new QueryBusyError(
            "address",
            `Your address has ${fromAddress} queries running or waiting over all its keys, the most one address may have; send the next when one has answered.`,
          ),
        );
      }
      if (queue.length >= limits.maxQueued) {
        return Promise.reject(
          new QueryBusyError("queue", "The query service is busy; try again in a few seconds."),
        );
      }
      // Started on the first query unless start() came first, so a shim nobody queries runs no DuckDB at all (a
      // worker takes 1-2 s to load DuckDB); after start failures, again.
      startAll();
      const counted: [Map<string, number>, string][] = [[inFlight.caller, key]];
      if (address !== undefined) counted.push([inFlight.address, address]);
      for (const [map, name] of counted) map.set(name, (map.get(name) ?? 0) + 1);
      const done = () => {
        for (const [map, name] of counted) {
          const left = (map.get(name) ?? 1) - 1;
          if (left === 0) map.delete(name);
          else map.set(name, left);
        }
      };
      const arrived = Date.now();
      const promise = new Promise<QueryResult>((resolve, reject) => {
        const waiting: Waiting = { job, resolve, reject };
        if (slots.some((s) => s.started && s.worker.alive)) arm(waiting, arrived);
        queue.push(waiting);
        dispatch();
      });
      return promise.finally(done);
    },
    async start() {
      startAll();
      // A worker killed a moment ago may not be replaced yet (its exit not reaped): wait for the exit, which starts
      // its replacement, so that "started" means every worker takes queries.
      for (let dead = slots.filter((s) => !s.worker.alive); dead.length > 0 && !closed; ) {
        await Promise.all(dead.map((s) => s.worker.kill()));
        dead = slots.filter((s) => !s.worker.alive);
      }
      await Promise.all(slots.map((s) => s.worker.ready));
    },
    pids() {
      return slots.flatMap((s) => (s.worker.pid === undefined ? [] : [s.worker.pid]));
    },
    load() {
      return { running: slots.filter((s) => s.started && s.busy).length, queued: queue.length };
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) {
        clearTimeout(waiting.timer);
        waiting.reject(new QueryBusyError("queue", "The query service is shutting down."));
      }
      await Promise.all(slots.map((s) => s.worker.kill()));
      slots.length = 0;
    },
  };
}
