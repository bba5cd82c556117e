// HTTP load from a second process: wrk (Debian's package), whose C event loop leaves the server under test the
// cores a JavaScript load generator would take from it (autocannon flattered the shim: 0.91x of node:http against
// wrk's 0.58-0.71x on these 2 cores).
import { spawn } from "node:child_process";

export const WRK = "/usr/bin/wrk";

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
  options: { threads?: number; headers?: readonly string[] } = {},
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
    const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "inherit"] });
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
