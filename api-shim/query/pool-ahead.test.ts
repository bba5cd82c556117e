// The query pool's work for callers who are not asking yet or no longer (issue 35, item 8), over real worker processes:
// the idle light worker opens the public database of the latest query ahead of its next one (so its slice is the
// query's own time, not DuckDB opening the file), and a query whose client left while it waited is dropped, not run.
import { copyFile, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, writePublicFixture } from "../../pipeline/public-testing.ts";
import { createQueryPool, QueryBusyError } from "./pool.ts";

/** Runs past any deadline a test gives and answers an interrupt. */
const SLOW = "SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range = -1";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let file: string;

beforeAll(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, "public.duckdb");
  await writePublicFixture(file);
}, 60_000);

afterAll(async () => {
  await temp.remove();
});

/**
 * The databases of this file's folder a process holds open (Linux's /proc, as the pool's memory watch reads). Only
 * this folder's: a worker is forked from the test's process, and DuckDB opens a database read-only without
 * close-on-exec, so a worker also holds the databases an earlier test file of the same (shared) test process keeps
 * open read-only (the simulated release's warehouse, which sharedSimApp keeps for the process's files).
 */
async function openFiles(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  const ours = targets.filter((target) => target.startsWith(`${temp.dir}/`) && target.endsWith(".duckdb"));
  return [...new Set(ours)].sort();
}

describe("query pool, ahead of and after its callers", () => {
  it("opens the latest query's public database in the idle light worker, and the next on a switch", async () => {
    const pool = createQueryPool({ limits: { workers: 1, lightWorkers: 1, threadsPerWorker: 1 } });
    await pool.start();
    try {
      const [general, light] = pool.pids() as [number, number];
      expect([await openFiles(general), await openFiles(light)]).toEqual([[], []]);
      // one query, answered by the general worker (the first free, which opens the file to run it): the light one
      // opens the file meanwhile, ahead of any query it may take
      const job = { file, sql: "SELECT count(*) AS n FROM projects", params: [] };
      expect((await pool.run({ key: "a", address: "198.51.100.20" }, job)).rows).toEqual([[6]]);
      for (const pid of [general, light]) {
        await expect.poll(() => openFiles(pid), { timeout: 60_000, interval: 50 }).toEqual([file]);
      }
      // a new release's database (another file): both move to it on its first query
      const next = path.join(temp.dir, "public-next.duckdb");
      await copyFile(file, next);
      expect((await pool.run({ key: "a", address: "198.51.100.20" }, { ...job, file: next })).rows).toEqual([
        [6],
      ]);
      for (const pid of [general, light]) {
        await expect.poll(() => openFiles(pid), { timeout: 60_000, interval: 50 }).toEqual([next]);
      }
      // opening ahead is not a query running
      expect(pool.load()).toEqual({ running: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  }, 180_000);

  it("drops a waiting query whose client left, without running it", async () => {
    const pool = createQueryPool({
      limits: { workers: 1, lightWorkers: 0, deadlineMs: 60_000, threadsPerWorker: 1 },
    });
    await pool.start();
    try {
      const held = pool
        .run({ key: "a", address: "198.51.100.21" }, { file, sql: SLOW, params: [] })
        .catch((error: Error) => error);
      await expect
        .poll(() => pool.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 1, queued: 0 });
      let left = false;
      const waiting = pool
        .run(
          { key: "b", address: "203.0.113.21", gone: () => left },
          { file, sql: "SELECT 7 AS n", params: [] },
        )
        .catch((error: Error) => error);
      expect(pool.load()).toEqual({ running: 1, queued: 1 });
      left = true;
      // the worker frees (killed here): the waiting query's turn comes, and its client is gone
      for (const pid of pool.pids()) process.kill(pid, "SIGKILL");
      const dropped = await waiting;
      expect([dropped.constructor, (dropped as QueryBusyError).reason, (dropped as Error).message]).toEqual([
        QueryBusyError,
        "queue",
        "The client left before its query's turn; it was not run.",
      ]);
      expect(((await held) as Error).message).toMatch(/^The query stopped its worker process/);
      expect(pool.load()).toEqual({ running: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  }, 120_000);
});
