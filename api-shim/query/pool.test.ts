// The query pool over real worker processes and a real public database: queries run in a child process, a query
// still queued at its deadline is refused there, a worker killed mid-query is replaced, a query eating memory
// is stopped without the shim's own memory growing, callers and the queue are bounded, the queue is served by address
// (a new address before a busy one's next), and a light worker answers a light query while heavy ones hold the rest.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryError } from "../../core/query/index.ts";
import { makeTempDir, writePublicFixture } from "../../pipeline/public-testing.ts";
import { createQueryPool, QueryBusyError, type QueryPool } from "./pool.ts";
import { stoppedBy } from "./testing.ts";

/** Runs past any deadline a test gives and answers an interrupt. */
const SLOW = "SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range = -1";
/**
 * Runs past any deadline a test gives and ignores an interrupt (one scalar call of 10^10 steps, about 30 s here), so
 * it is killed; its memory stays flat (under 100 MB), so only the deadline can stop it, however fast the machine.
 */
const STUBBORN = "SELECT levenshtein(repeat('a', 100000), repeat('b', 100000)) AS d";
/** One scalar call building a 2-GB string: the worker's resident memory bound stops it. */
const GREEDY = "SELECT length(repeat('x', 2000000000)) AS n";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let file: string;
let pool: QueryPool;

beforeAll(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, "public.duckdb");
  await writePublicFixture(file);
  pool = createQueryPool({ limits: { workers: 1, lightWorkers: 0, deadlineMs: 1_500, threadsPerWorker: 1 } });
  // Loading DuckDB takes a worker 1-2 s on a busy machine: started before the deadlines are measured.
  await pool.start();
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await temp.remove();
});

const job = (sql: string, params: (string | number)[] = []) => ({ file, sql, params });

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected the query to fail");
    },
    (error: Error) => error,
  );
}

describe("query pool", () => {
  it("runs a query in a worker process, not in the shim", async () => {
    const result = await pool.run(
      "a",
      job("SELECT full_name FROM projects WHERE stars > ? ORDER BY 1", [100_000]),
    );
    expect(result.rows).toEqual([["langchain-ai/langchain"], ["ollama/ollama"]]);
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()[0]).not.toBe(process.pid);
  });

  it("refuses a query still queued at its deadline (busy: 503), and kills the running one that ignores its interrupt", async () => {
    const started = Date.now();
    const running = failure(pool.run("a", job(STUBBORN)));
    const queued = failure(pool.run("b", job("SELECT 1")));
    const [first, second] = await Promise.all([running, queued]);
    expect([(first as QueryError).code, first.message]).toEqual([
      "query_timeout",
      "The query ran past its 1500 ms deadline and was stopped.",
    ]);
    expect([second.constructor, (second as QueryBusyError).reason, second.message]).toEqual([
      QueryBusyError,
      "queue",
      "The query waited for a free worker past its 1500 ms deadline and was not run: the server is busy with other queries; retry in a few seconds.",
    ]);
    expect(Date.now() - started).toBeLessThan(stoppedBy(1_500));
    await pool.start(); // the killed worker's replacement
    expect((await pool.run("a", job("SELECT 42"))).rows).toEqual([[42]]);
  });

  it("times a query that arrives while the pool starts from its first worker ready, not from its arrival", async () => {
    // a worker takes a second or more to load DuckDB (about 2 s here, longer on a busy machine): timed from the
    // arrival this query would be cancelled before any worker could take it
    const cold = createQueryPool({
      limits: { workers: 1, lightWorkers: 0, deadlineMs: 1_000, threadsPerWorker: 1 },
    });
    try {
      const started = Date.now();
      expect((await cold.run("a", job("SELECT 42 AS n"))).rows).toEqual([[42]]);
      console.log(`cold pool: first query answered after ${Date.now() - started} ms (deadline 1,000 ms)`);
    } finally {
      await cold.close();
    }
  });

  it("interrupts a running query at its deadline", async () => {
    const error = await failure(pool.run("a", job(SLOW)));
    expect([(error as QueryError).code, error.message]).toEqual([
      "query_timeout",
      "The query ran past its 1500 ms deadline and was stopped.",
    ]);
    await pool.start(); // had the interrupt not landed within the grace, the worker was killed and is replaced
    expect((await pool.run("a", job("SELECT 43"))).rows).toEqual([[43]]);
  });

  it("answers after its worker is killed mid-query, with a new worker", async () => {
    const [before] = pool.pids();
    const running = failure(pool.run("a", job(SLOW)));
    // killed once its worker has the query, however long handing it over takes on a busy machine
    await expect
      .poll(() => pool.load(), { timeout: 30_000, interval: 10 })
      .toEqual({ running: 1, queued: 0 });
    process.kill(before as number, "SIGKILL");
    const error = await running;
    expect((error as QueryError).code).toBe("query_rejected");
    expect(error.message).toMatch(/^The query stopped its worker process/);
    await pool.start();
    expect((await pool.run("a", job("SELECT 'still here' AS s"))).rows).toEqual([["still here"]]);
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()[0]).not.toBe(before);
  });

  it("refuses a caller's query past its in-flight cap, and a full queue", async () => {
    const small = createQueryPool({
      limits: { workers: 1, lightWorkers: 0, perCaller: 2, maxQueued: 2, deadlineMs: 800 },
    });
    await small.start();
    try {
      const mine = [failure(small.run("c", job(SLOW))), failure(small.run("c", job(SLOW)))];
      const third = await failure(small.run("c", job("SELECT 1")));
      expect(third).toBeInstanceOf(QueryBusyError);
      expect([(third as QueryBusyError).reason, third.message]).toEqual([
        "caller",
        "You have 2 queries running or waiting, the most a caller may have; send the next when one has answered.",
      ]);
      const others = [failure(small.run("d", job(SLOW)))];
      // the queue is full: a new caller stands before c's queued query (c has one running), which gives its place up
      others.push(failure(small.run("e", job(SLOW))));
      const gaveUp = await (mine[1] as Promise<Error>);
      expect([(gaveUp as QueryBusyError).reason, gaveUp.message]).toEqual([
        "queue",
        "The query service is busy and this query was last in line (addresses with fewer or lighter queries go first): it gave its place to another address's; try again in a few seconds.",
      ]);
      // d's second stands no better than the last in line (d's own first): refused
      const full = await failure(small.run("d", job("SELECT 1")));
      expect([(full as QueryBusyError).reason, full.message]).toEqual([
        "queue",
        "The query service is busy; try again in a few seconds.",
      ]);
      await Promise.all([...mine, ...others]);
    } finally {
      await small.close();
    }
  });

  it("stops a query past the worker's memory bound long before its deadline, with the memory error", async () => {
    const bounded = createQueryPool({
      limits: { workers: 1, lightWorkers: 0, deadlineMs: 600_000, workerRssBytes: 384 * 1024 * 1024 },
    });
    await bounded.start();
    try {
      const error = await failure(bounded.run("a", job(GREEDY)));
      expect([error.constructor, (error as QueryError).code, error.message]).toEqual([
        QueryError,
        "query_rejected",
        "The query needed more than the 384 MiB of memory a query may use and was stopped.",
      ]);
      await bounded.start();
      expect((await bounded.run("a", job("SELECT 3 AS n"))).rows).toEqual([[3]]);
    } finally {
      await bounded.close();
    }
  });

  it("stops repeat('x', 3e9) within the deadline and a second, the shim's memory untouched", async () => {
    const big = createQueryPool({ limits: { workers: 1, lightWorkers: 0, deadlineMs: 3_000 } });
    await big.start();
    try {
      let peak = process.memoryUsage().rss;
      const sample = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const before = process.memoryUsage().rss;
      const started = Date.now();
      const error = await failure(big.run("a", job("SELECT repeat('x', 3e9::BIGINT) AS s")));
      const took = Date.now() - started;
      clearInterval(sample);
      expect(error).toBeInstanceOf(QueryError);
      expect(took).toBeLessThan(stoppedBy(3_000));
      expect(peak).toBeLessThan(300 * 1024 * 1024);
      expect(peak - before).toBeLessThan(100 * 1024 * 1024);
      await big.start();
      expect((await big.run("a", job("SELECT 2 AS n"))).rows).toEqual([[2]]);
      console.log(
        `repeat('x', 3e9): ${error.message} after ${took} ms; shim RSS peak ${Math.round(peak / 2 ** 20)} MiB`,
      );
    } finally {
      await big.close();
    }
  });

  it("serves a new address before a busy one's next query, and a full queue gives a busy address's place away", async () => {
    const fair = createQueryPool({
      limits: { workers: 1, lightWorkers: 0, deadlineMs: 60_000, maxQueued: 3, perAddress: 4, perCaller: 4 },
    });
    await fair.start();
    try {
      const busy = (n: number) => failure(fair.run({ key: `busy-${n}`, address: "198.51.100.7" }, job(SLOW)));
      const first = busy(1);
      await expect
        .poll(() => fair.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 0 });
      const [second, third, fourth] = [busy(2), busy(3), busy(4)];
      await expect
        .poll(() => fair.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 3 });
      // the queue is full, all of it the busy address's: its newest query gives its place to the new address
      const victim = fair.run({ key: "victim", address: "203.0.113.9" }, job("SELECT 7 AS n"));
      const evicted = await fourth;
      expect([evicted.constructor, (evicted as QueryBusyError).reason, evicted.message]).toEqual([
        QueryBusyError,
        "queue",
        "The query service is busy and this query was last in line (addresses with fewer or lighter queries go first): it gave its place to another address's; try again in a few seconds.",
      ]);
      // the running query ends (its worker killed): the new address's query goes next, before the busy one's two
      for (const pid of fair.pids()) process.kill(pid, "SIGKILL");
      expect((await first).message).toMatch(/^The query stopped its worker process/);
      expect((await victim).rows).toEqual([[7]]);
      await expect
        .poll(() => fair.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 1 });
      await fair.close();
      await Promise.all([second, third]);
    } finally {
      await fair.close();
    }
  }, 120_000);

  // retried: once in a whole-suite run at load 5 the two heavy queries had left the queue when the light one answered
  // (a replacement light worker not yet up is the suspect, unconfirmed); alone it passes every time. Issue 35's note.
  it("answers a light address on the light worker while a heavy address holds the general one", {
    retry: 2,
    timeout: 120_000,
  }, async () => {
    const lanes = createQueryPool({
      limits: {
        workers: 1,
        lightWorkers: 1,
        lightSliceMs: 500,
        deadlineMs: 60_000,
        perCaller: 4,
      },
    });
    await lanes.start();
    try {
      const heavy = (n: number) =>
        failure(lanes.run({ key: `heavy-${n}`, address: "198.51.100.8" }, job(SLOW)));
      // the first takes the general worker; the second the light one, for its slice only, then waits
      const held = [heavy(1), heavy(2)];
      await expect
        .poll(() => lanes.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 1 });
      // a query of the heavy address ran past the slice: its next one waits for the general worker
      const third = heavy(3);
      await expect
        .poll(() => lanes.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 2 });
      const light = await lanes.run(
        { key: "light", address: "203.0.113.10" },
        job("SELECT count(*) FROM projects"),
      );
      expect(light.rows).toEqual([[6]]);
      // answered while all three heavy queries are still running or waiting (their deadline is a minute away; had the
      // light one waited for the general worker, they would have ended first). Which of them the light worker takes
      // once it is free again is not this test's subject (a whole-suite run saw it take one: running 2, queued 1).
      const { running, queued } = lanes.load();
      expect(running + queued).toBe(3);
      await lanes.close();
      await Promise.all([...held, third]);
    } finally {
      await lanes.close();
    }
  });
});
