// Helpers for the benchmarks that drive `projintel` in child processes against a simulator in its own
// process: run a CLI command with its structured log kept in a file, talk to the simulator's control API,
// and count the batch files a collect has saved so far.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { CollectReport } from "../pipeline/collect.ts";
import { CLI } from "./pipeline.ts";

export interface CliRun {
  wall_ms: number;
  exit_code: number;
}

/**
 * Fresh GitHub token names for one child run: the simulator's GraphQL budget is 5,000 points per token and
 * hour of wall time, and a bench spends several collects within the hour.
 */
export function freshTokens(label: string, n = 1): Record<string, string> {
  const names = Array.from({ length: n }, (_, k) => `bench-${label}-${k}-${process.pid}-${Date.now()}`);
  return { PROJINTEL_GITHUB__TOKENS: names.join(",") };
}

/** Starts `projintel <args>` with its JSON log lines (stderr) appended to `logFile`. */
export function spawnCli(args: string[], logFile: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.pipe(createWriteStream(logFile, { flags: "a" }));
  return child;
}

export function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? 1);
    else child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** Runs `projintel <args>` to the end and times it. */
export async function runCli(args: string[], logFile: string, env: Record<string, string> = {}) {
  const started = performance.now();
  const exit_code = await exited(spawnCli(args, logFile, env));
  return { wall_ms: Math.round(performance.now() - started), exit_code } satisfies CliRun;
}

/** Calls the simulator's control API (/_sim/...) and returns the JSON answer. */
export async function simControl(
  url: string,
  route: string,
  method: "GET" | "POST" = "GET",
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${url}${route}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`the simulator answered ${method} ${route} with ${response.status}`);
  return response.json();
}

/** The finished batch files of a run (temp files of a half-written batch are left out), as source/file. */
export async function batchFiles(stateDir: string, runDate: string): Promise<string[]> {
  const root = path.join(stateDir, "runs", runDate, "batches");
  const sources = await readdir(root).catch(() => [] as string[]);
  const lists = await Promise.all(
    sources.map(async (source) =>
      (await readdir(path.join(root, source)).catch(() => [] as string[]))
        // spent.* are github_rest's notes of what a batch cost, written just before the batch: not batches.
        .filter((f) => f.endsWith(".ndjson") && !f.startsWith("spent."))
        .map((f) => `${source}/${f}`),
    ),
  );
  return lists.flat().sort();
}

/** Temp files left beside the batches (a write cut short by a kill). */
export async function strayTempFiles(stateDir: string, runDate: string): Promise<number> {
  const root = path.join(stateDir, "runs", runDate, "batches");
  const sources = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const source of sources)
    n += (await readdir(path.join(root, source)).catch(() => [] as string[])).filter((f) =>
      f.endsWith(".tmp"),
    ).length;
  return n;
}

/** The collect report inside a manifest written with --report-json. */
export async function readCollectReport(file: string): Promise<CollectReport> {
  const json = JSON.parse(await readFile(file, "utf8"));
  return json.collect ?? json;
}
