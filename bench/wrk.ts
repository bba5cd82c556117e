// HTTP load from a second process: wrk (Debian's package), whose C event loop leaves the server under test the
// cores a JavaScript load generator would take from it (autocannon flattered the shim: 0.91x of node:http against
// wrk's 0.58-0.71x on these 2 cores).
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";

export const WRK = "/usr/bin/wrk";

/**
 * On a machine of 2 cores or more with util-linux's taskset, the servers under test run on one core and wrk on
 * another: otherwise the scheduler moves them about (measured here, one server's throughput moved 24k–50k req/s from
 * run to run unpinned), and a ratio of two servers measured minutes apart compares the scheduler's luck. Pinned, a
 * server gets a whole core and its throughput is what a request costs it.
 */
export const PINNING =
  os.availableParallelism() >= 2 && spawnSync("taskset", ["-p", String(process.pid)]).status === 0
    ? { server: "0", load: "1" }
    : undefined;

/** A command line run on `core` when pinning (taskset execs it: the pid is the command's own). */
export function onCore(
  core: "server" | "load",
  command: string,
  args: readonly string[],
): [string, string[]] {
  return PINNING ? ["taskset", ["-c", PINNING[core], command, ...args]] : [command, [...args]];
}

/**
 * Requests a second with wrk and its latency percentiles: 2 threads and 32 connections measure throughput (their
 * latencies are mostly queueing), 1 connection measures how long one request takes; `headers` are sent with every
 * request ("Authorization: Bearer …").
 */
export async function wrk(
  url: string,
  seconds: number,
  script?: string,
  connections = 32,
  /** pinned: on the load's core (PINNING), for a server started pinned (startChild). */
  options: { threads?: number; headers?: readonly string[]; pinned?: boolean } = {},
) {
  const threads = options.threads ?? Math.min(2, connections);
  const args = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    ...(options.headers ?? []).flatMap((header) => ["-H", header]),
    ...(script ? ["-s", script] : []),
    url,
  ];
  const out = await new Promise<string>((resolve, reject) => {
    const [command, argv] = options.pinned ? onCore("load", WRK, args) : [WRK, args];
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
    });
    child.on("error", reject);
    child.on("exit", () => resolve(text));
  });
  if (/Non-2xx/.test(out)) throw new Error(`wrk ${url}: non-2xx responses\n${out}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const ms = (p: string) => {
    const match = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!match) return Number.NaN;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  return { rps, p50_ms: ms("50"), p99_ms: ms("99") };
}
