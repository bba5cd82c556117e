// Runs a command as a child process and measures its wall time and peak resident memory (GNU time's %M,
// the kernel's own max RSS of the process tree's waited-for process).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface Measurement {
  wall_ms: number;
  peak_rss_mib: number;
  exit_code: number;
}

const GNU_TIME = "/usr/bin/time";

export async function measureCommand(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {},
): Promise<Measurement> {
  if (!existsSync(GNU_TIME))
    throw new Error("GNU time is needed for memory figures: apt-get install -y time");
  const dir = await mkdtemp(path.join(os.tmpdir(), "projintel-bench-"));
  const out = path.join(dir, "time.txt");
  const started = performance.now();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(GNU_TIME, ["-f", "%M", "-o", out, command, ...args], {
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
      stdio: options.quiet === false ? "inherit" : ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      if (exitCode !== 0) process.stderr.write(stderr);
      resolve(exitCode ?? 1);
    });
  });
  const wall = performance.now() - started;
  const kib = Number((await readFile(out, "utf8")).trim().split("\n").pop());
  await rm(dir, { recursive: true, force: true });
  return { wall_ms: Math.round(wall), peak_rss_mib: Math.round((kib / 1024) * 10) / 10, exit_code: code };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A running process's resident memory now, in MiB (0 once it is gone). */
export async function residentMib(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024);
}

/**
 * Samples a running process's resident memory every `everyMs` until stopped: its memory at the start, the highest
 * sample, and its memory when stopped, in MiB.
 */
export async function watchResident(pid: number | undefined, everyMs: number) {
  const before = await residentMib(pid);
  let peak = before;
  const sampler = setInterval(() => {
    void residentMib(pid).then((mib) => {
      peak = Math.max(peak, mib);
    });
  }, everyMs);
  return {
    before,
    async stop(): Promise<{ before: number; peak: number; after: number }> {
      clearInterval(sampler);
      const after = await residentMib(pid);
      return { before, peak: Math.max(peak, after), after };
    },
  };
}
