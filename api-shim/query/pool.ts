// The query pool: worker processes, a fair queue in front of them, and the limits that keep one caller, one address
// or one query from taking the server — queries per caller and per address, queue length, and a deadline counted
// from arrival, so a query still queued at its deadline is refused there. The queue is served by address, not by
// arrival: addresses with light queries, then new ones, then busy ones, each by the fewest queries running and the
// least worker time used lately; a full queue gives the place of the query last in line to one that stands before it.
// A light worker beside the general ones takes only queries of addresses with no query past a short slice lately,
// for that slice: a query past it goes back to wait for a general worker. An idle light worker opens the public
// database of the latest query ahead of the next, and takes only queries on the database it has open, so its slice is
// the query's own time. A worker that dies is replaced. A query that arrives before any worker is ready (the
// pool starting) has its deadline counted from the first one ready; one whose client left is dropped, never run.
import { type Logger, silentLogger } from "../../core/log.ts";
import { QueryError, type QueryResult } from "../../core/query/index.ts";
import { QUERY_LIMITS, type QueryServiceLimits } from "../../core/query/limits.ts";
import { createUsage } from "./usage.ts";
import { type QueryWorker, startWorker, type WorkerJob, WorkerUnavailableError } from "./worker-process.ts";

/** Refused before running: the caller or its address has too many queries in flight, or the queue is full. */
export class QueryBusyError extends Error {
  readonly reason: "caller" | "address" | "queue";
  constructor(reason: "caller" | "address" | "queue", message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Who runs a query: its quota key (a key's hash, or the address for an anonymous caller), and the client address it
 * came from (IPv6 grouped by /64, api-shim/http/client-address.ts), whose queries over all its keys are bounded and
 * queued fairly. A bare string is a caller with no address of its own: the key stands for it.
 */
export type QueryCaller = string | { key: string; address?: string; gone?: () => boolean };

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
  /** The address (or, without one, the caller) it is queued and counted under. */
  group: string;
  arrived: number;
  /** Unset while no worker has started yet: the deadline runs from the first one ready. */
  deadlineAt?: number;
  timer?: NodeJS.Timeout;
  /** Sent to the light worker once and stopped at its slice: it waits for a general worker now. */
  sliced: boolean;
  /** True once its client can no longer be answered (its connection closed): dropped when its turn comes. */
  gone?: () => boolean;
  resolve(result: QueryResult): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: QueryWorker;
  busy: boolean;
  started: boolean;
  /** Takes only queries of light addresses, each for at most lightSliceMs, on the database it has open. */
  light: boolean;
  /** The public database the worker has open (a query on it answered, or opened ahead). */
  file?: string;
  /** Opening the latest database ahead: a general worker still takes a query (it waits for the open in the worker). */
  opening: boolean;
  /** A database it failed to open ahead: not tried again (the query on it reports why). */
  failedFile?: string;
}

/** Workers in a row that exit before they are ready, after which the pool stops starting more. */
const MAX_START_FAILURES = 3;

export function createQueryPool(
  options: { limits?: Partial<QueryServiceLimits>; logger?: Logger; now?: () => number } = {},
): QueryPool {
  const limits: QueryServiceLimits = { ...QUERY_LIMITS, ...options.limits };
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const slots: Slot[] = [];
  const queue: Waiting[] = [];
  const inFlight = { caller: new Map<string, number>(), address: new Map<string, number>() };
  /** Queries of each group handed to a worker now, and each one's group and start. */
  const running = new Map<string, number>();
  const active = new Set<{ group: string; started: number }>();
  const usage = createUsage({ halfLifeMs: limits.usageHalfLifeMs, heavyMarkMs: limits.heavyMarkMs }, now);
  let closed = false;
  let startFailures = 0;
  /** The public database of the latest query: idle workers open it ahead (a release switch names a new one). */
  let latestFile: string | undefined;

  function spawn(light: boolean): void {
    const slot: Slot = {
      busy: true,
      started: false,
      opening: false,
      light,
      worker: startWorker(limits, () => replace(slot)),
    };
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
    for (let i = 0; i < limits.workers; i++) spawn(false);
    for (let i = 0; i < limits.lightWorkers; i++) spawn(true);
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
    spawn(slot.light);
  }

  /** Starts a waiting query's deadline (once): from its arrival, or from the first worker ready if none was. */
  function arm(waiting: Waiting, at = now()): void {
    if (waiting.deadlineAt === undefined) expireAt(waiting, at + limits.deadlineMs);
  }

  /** Still queued at `deadlineAt`: refused there, never handed to a worker. The server was busy, not the query slow. */
  function expireAt(waiting: Waiting, deadlineAt: number): void {
    waiting.deadlineAt = deadlineAt;
    waiting.timer = setTimeout(() => {
      if (!unqueue(waiting)) return;
      waiting.reject(
        new QueryBusyError(
          "queue",
          `The query waited for a free worker past its ${limits.deadlineMs} ms deadline and was not run: the server is busy with other queries; retry in a few seconds.`,
        ),
      );
    }, deadlineAt - now());
  }

  function unqueue(waiting: Waiting): boolean {
    const index = queue.indexOf(waiting);
    if (index === -1) return false;
    queue.splice(index, 1);
    return true;
  }

  /** Worker time a group used lately, its queries running now included. */
  function spent(group: string): number {
    let total = usage.of(group);
    for (const run of active) if (run.group === group) total += now() - run.started;
    return total;
  }

  /** Light: a query not yet sliced, of an address none of whose queries ran past the slice lately (running ones too). */
  function isLight(waiting: Waiting): boolean {
    if (waiting.sliced || usage.heavy(waiting.group)) return false;
    for (const run of active) {
      if (run.group === waiting.group && now() - run.started > limits.lightSliceMs) return false;
    }
    return true;
  }

  /**
   * Where a query of `group` stands in line, lower first: addresses whose queries finished within the light slice
   * lately, then addresses not seen lately, then those with a query past it (heavy); among them the fewest queries
   * running, then the least worker time used lately, then the fewest queries in flight, then the earliest arrival —
   * so a new address goes before a busy one's next query, whatever the busy one queued first.
   */
  function rank(group: string, arrived: number): number[] {
    const standing = usage.provenLight(group) ? 0 : usage.heavy(group) ? 2 : 1;
    const inFlightNow = inFlight.address.get(group) ?? inFlight.caller.get(group) ?? 0;
    return [standing, running.get(group) ?? 0, spent(group), inFlightNow, arrived];
  }

  /**
   * The next query for a worker, first in line; a light worker takes light queries on the database it has open only
   * (opening one takes a second or more on a busy machine: the slice would end before the query began).
   */
  function next(slot: Slot): Waiting | undefined {
    let best: Waiting | undefined;
    let bestRank: number[] = [];
    for (const waiting of queue) {
      if (slot.light && (!isLight(waiting) || waiting.job.file !== slot.file)) continue;
      const ranked = rank(waiting.group, waiting.arrived);
      if (!best || compareRanks(ranked, bestRank) < 0) [best, bestRank] = [waiting, ranked];
    }
    return best;
  }

  /** Queries whose clients left while they waited: refused now, so no worker builds an answer nobody reads. */
  function dropGone(): void {
    for (const waiting of queue.filter((w) => w.gone?.())) {
      unqueue(waiting);
      clearTimeout(waiting.timer);
      waiting.reject(new QueryBusyError("queue", "The client left before its query's turn; it was not run."));
    }
  }

  /**
   * An idle light worker opens the latest query's database ahead of its next query (once per database). Only the
   * light ones: a general worker has no slice to lose, and opening in every idle worker at once after a release
   * switch or a kill takes the CPU from the queries running meanwhile.
   */
  function openAhead(slot: Slot): void {
    const file = latestFile;
    if (!slot.light || slot.opening || file === undefined || slot.file === file || slot.failedFile === file)
      return;
    slot.opening = true;
    slot.worker
      .open(file)
      .then(
        () => {
          slot.file = file;
        },
        (error: unknown) => {
          slot.failedFile = file;
          logger.warn("query worker cannot open the public database ahead", { error: String(error) });
        },
      )
      .finally(() => {
        slot.opening = false;
        dispatch();
      });
  }

  function dispatch(): void {
    dropGone();
    for (const slot of slots) {
      if (slot.busy || !slot.started || !slot.worker.alive) continue;
      const chosen = next(slot);
      if (!chosen) {
        openAhead(slot);
        continue;
      }
      unqueue(chosen);
      clearTimeout(chosen.timer);
      slot.busy = true;
      running.set(chosen.group, (running.get(chosen.group) ?? 0) + 1);
      const deadlineAt = chosen.deadlineAt ?? now() + limits.deadlineMs;
      const started = now();
      const run = { group: chosen.group, started };
      active.add(run);
      const sliceEnd = slot.light ? Math.min(deadlineAt, started + limits.lightSliceMs) : deadlineAt;
      // the query's own time when it answers: a worker's first query also opens the database, which is not its cost
      let ran: number | undefined;
      slot.worker
        .run(chosen.job, sliceEnd)
        .then(
          (result) => {
            ran = result.elapsed_ms;
            slot.file = chosen.job.file;
            chosen.resolve(result);
          },
          (error: unknown) => {
            // a refusal or a timeout leaves the worker with the database open (a crash leaves no worker)
            if (error instanceof QueryError && slot.worker.alive) slot.file = chosen.job.file;
            if (slot.light && sliceEnd < deadlineAt && isTimeout(error)) {
              // past its slice, not its deadline: it waits for a general worker with the time it has left
              chosen.sliced = true;
              queue.push(chosen);
              expireAt(chosen, deadlineAt);
              return;
            }
            // the caller gets a plain 503; the operator needs the reason (a missing or unreadable public database)
            if (error instanceof WorkerUnavailableError) {
              logger.error("query worker cannot run queries", { error: error.message });
            }
            chosen.reject(error);
          },
        )
        .finally(() => {
          active.delete(run);
          const ms = ran ?? now() - started;
          // only an answer proves a query light; a failure within the slice (a refusal, a crash) shows nothing
          const heavy = ms > limits.lightSliceMs || chosen.sliced;
          usage.add(chosen.group, ms, heavy ? "heavy" : ran !== undefined ? "light" : undefined);
          const left = (running.get(chosen.group) ?? 1) - 1;
          if (left === 0) running.delete(chosen.group);
          else running.set(chosen.group, left);
          slot.busy = false;
          dispatch();
        });
    }
  }

  /**
   * A full queue: the query last in line gives its place up (503) when the arriving one would stand before it (its
   * arrival aside), so a busy address's newest query makes room for a new address; otherwise the arriving query is
   * refused.
   */
  function makeRoom(group: string): boolean {
    let last: Waiting | undefined;
    let lastRank: number[] = [];
    for (const waiting of queue) {
      const ranked = rank(waiting.group, waiting.arrived);
      // on a tie, the later in the queue (the newer) is last
      if (!last || compareRanks(ranked, lastRank) >= 0) [last, lastRank] = [waiting, ranked];
    }
    if (!last || compareRanks(rank(group, 0).slice(0, -1), lastRank.slice(0, -1)) >= 0) return false;
    unqueue(last);
    clearTimeout(last.timer);
    last.reject(
      new QueryBusyError(
        "queue",
        "The query service is busy and this query was last in line (addresses with fewer or lighter queries go first): it gave its place to another address's; try again in a few seconds.",
      ),
    );
    return true;
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
      const group = address ?? key;
      if (queue.length >= limits.maxQueued && !makeRoom(group)) {
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
      const arrived = now();
      const promise = new Promise<QueryResult>((resolve, reject) => {
        const gone = typeof caller === "string" ? undefined : caller.gone;
        const waiting: Waiting = { job, group, arrived, sliced: false, gone, resolve, reject };
        latestFile = job.file;
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

function isTimeout(error: unknown): boolean {
  return error instanceof QueryError && error.code === "query_timeout";
}

/** Orders two ranks element by element. */
function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
