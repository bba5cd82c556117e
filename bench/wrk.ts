// HTTP load from a second process: wrk (Debian's package), whose C event loop leaves the server under test the
// cores a JavaScript load generator would take from it (autocannon flattered the shim: 0.91x of node:http against
// wrk's 0.58-0.71x on these 2 cores).
import { spawn, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
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

/** User and system CPU time of a process so far, in microseconds (Linux; clock ticks of 10 ms). */
async function cpuMicros(pid: number | undefined): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** A server under load: its URL and process (for its CPU time). */
export interface Target {
  url: string;
  pid: number | undefined;
}

/** Requests a second of one server over a measurement, and microseconds of its CPU per request. */
export interface Share {
  rps: number;
  cpu: number;
}

/** Slices a measurement is cut into, each server loaded in turn (A, B, C, A, B, C, …). */
export const SLICES = 5;
/** wrk's connections when servers are compared (with 1 thread): the load the throughput targets are stated for. */
export const COMPARED_CONNECTIONS = 50;

/**
 * Loads each of `targets` for `seconds` in all, in SLICES turns of seconds / SLICES each, one server after the
 * other: servers compared this way see the same machine. On a shared machine the host's load moves within seconds
 * (measured here: one node:http server at 10k–30k req/s from one 5-second run to the next, with other tenants' steal
 * time), so two servers each measured for 5 seconds in a row compare those seconds as much as the servers; their
 * slices interleaved a second apart, both see the same moments. wrk pinned, 1 thread, COMPARED_CONNECTIONS; one Share
 * per target, in their order.
 */
export async function interleaved<const T extends readonly Target[]>(
  targets: T,
  seconds: number,
  options: { headers?: readonly string[] } = {},
): Promise<{ [K in keyof T]: Share }> {
  const totals = targets.map(() => ({ requests: 0, cpu: 0 }));
  const slice = seconds / SLICES;
  for (let turn = 0; turn < SLICES; turn++)
    for (const [i, target] of targets.entries()) {
      const before = await cpuMicros(target.pid);
      const { rps } = await wrk(target.url, slice, undefined, COMPARED_CONNECTIONS, {
        threads: 1,
        headers: options.headers ?? [],
        pinned: true,
      });
      const total = totals[i] as { requests: number; cpu: number };
      total.cpu += (await cpuMicros(target.pid)) - before;
      total.requests += rps * slice;
    }
  return totals.map(({ requests, cpu }) => ({
    rps: requests / seconds,
    cpu: Math.round((cpu / requests) * 100) / 100,
  })) as { [K in keyof T]: Share };
}
