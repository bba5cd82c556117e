// Test helpers for the query endpoint: the shim over a private copy of the shared simulated release, listening on
// a loopback port with a query pool of the test's limits, and a POST that returns status, headers and JSON.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { QUERY_LIMITS, type QueryServiceLimits } from "../../core/query/limits.ts";
import { simRelease } from "../../test/sim-release.ts";
import { type RunningServer, startServer } from "../server.ts";
import { createQueryPool, type QueryPool } from "./pool.ts";

/**
 * The latest a query past its deadline may answer: the interrupt, the kill grace after it, and 2 s more that a
 * machine busy with other work may add. A deadline guarantee, checked with a margin load cannot break.
 */
export const stoppedBy = (deadlineMs: number) => deadlineMs + QUERY_LIMITS.killGraceMs + 2_000;

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON it asked for
  body: any;
  headers: Headers;
}

export interface QueryShim {
  server: RunningServer;
  pool: QueryPool;
  stateDir: string;
  post(body: unknown, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export async function queryShim(limits: Partial<QueryServiceLimits> = {}): Promise<QueryShim> {
  const release = await simRelease();
  const pool = createQueryPool({ limits: { threadsPerWorker: 1, ...limits } });
  const config = { ...release.config, host: "127.0.0.1" };
  const server = await startServer({ config, queryPool: pool });
  await pool.start();
  return {
    server,
    pool,
    stateDir: release.stateDir,
    async post(body, headers = {}) {
      const res = await fetch(`${server.url}/api/v1/query`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async close() {
      await server.close();
      await release.cleanup();
    },
  };
}

/** Every file under `dir` with its size and modification time, except the shim's own bookkeeping files. */
export async function fileList(dir: string, skip: readonly string[] = []): Promise<string[]> {
  const names = (await readdir(dir, { recursive: true })).sort();
  const out: string[] = [];
  for (const name of names) {
    if (skip.some((s) => name === s || name.startsWith(`${s}`))) continue;
    const info = await stat(path.join(dir, name));
    out.push(`${name} ${info.isDirectory() ? "dir" : `${info.size} ${info.mtimeMs}`}`);
  }
  return out;
}
