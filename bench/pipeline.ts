// Pipeline figures: `npm start`'s pipeline on the default world (demo --no-serve), its first answer on a fresh state
// folder (first-answer), and `nightly` at 20,000 repositories against a simulator running in its own process.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Measurement, measureCommand, median } from "./measure.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const CLI = path.join(ROOT, "bin", "projintel.js");

export async function startSim(repos: number, date: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "sim",
      "--repos",
      String(repos),
      "--seed",
      "7",
      "--port",
      "0",
      "--date",
      date,
      "--log-level",
      "warn",
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { url, child };
}

function summarise(runs: Measurement[]) {
  return {
    runs,
    median_wall_ms: median(runs.map((r) => r.wall_ms)),
    median_peak_rss_mib: median(runs.map((r) => r.peak_rss_mib)),
  };
}

/** `npm start`'s pipeline without the server: simulator, nightly and publish into `stateDir`. */
export function runDemoPipeline(stateDir: string): Promise<Measurement> {
  return measureCommand(process.execPath, [
    CLI,
    "demo",
    "--no-serve",
    "--state-dir",
    stateDir,
    "--log-level",
    "warn",
  ]);
}

export async function benchDemoPipeline(rounds = 3) {
  const runs: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    const state = await mkdtemp(path.join(os.tmpdir(), "projintel-demo-"));
    runs.push(await runDemoPipeline(state));
    await rm(state, { recursive: true, force: true });
  }
  return summarise(runs);
}

export async function benchNightly(repos: number, rounds = 3) {
  const date = "2026-11-20";
  const runs: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    const sim = await startSim(repos, date);
    const state = await mkdtemp(path.join(os.tmpdir(), "projintel-nightly-"));
    try {
      runs.push(
        await measureCommand(process.execPath, [
          CLI,
          "nightly",
          "--sim",
          sim.url,
          "--state-dir",
          state,
          "--log-level",
          "warn",
          "--force",
        ]),
      );
    } finally {
      sim.child.kill("SIGTERM");
      await rm(state, { recursive: true, force: true });
    }
  }
  return { repos, ...summarise(runs) };
}

/** How often the first-answer bench asks the starting API whether it answers. */
const FIRST_ANSWER_POLL_MS = 100;

/**
 * What a new user sees: `npm start` on a fresh state folder (the node flags of package.json's start script) until
 * the first 200 from /api/v1/status, the stages' own durations as the demo prints them, then Ctrl-C.
 */
export async function runFirstAnswer(
  stateDir: string,
): Promise<{ first_answer_ms: number; stages: string[] }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--min-semi-space-size=16", "--no-memory-reducer", CLI, "demo", "--port", "0", "--state-dir", stateDir],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    for (;;) {
      const url = /serve +(http:\/\/\S+) answers/.exec(out)?.[1];
      if (child.exitCode !== null) throw new Error(`demo exited with ${child.exitCode}:\n${out}`);
      if (url) {
        const res = await fetch(`${url}/api/v1/status`).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status === 200) break;
      }
      await new Promise((resolve) => setTimeout(resolve, FIRST_ANSWER_POLL_MS));
    }
    const firstAnswer = performance.now() - started;
    // the stages as printed before the API answered: simulator, collect, score, publish with their seconds
    const stages = out
      .split("\n")
      .filter((l) => /^ {2}(simulator|collect|score|publish)\b/.test(l))
      .map((l) => l.trim().replace(/\s+/g, " "));
    return { first_answer_ms: Math.round(firstAnswer), stages };
  } finally {
    child.kill("SIGINT");
    await exited;
  }
}

export async function benchFirstAnswer(rounds = 3) {
  const runs: Awaited<ReturnType<typeof runFirstAnswer>>[] = [];
  for (let i = 0; i < rounds; i++) {
    const state = await mkdtemp(path.join(os.tmpdir(), "projintel-first-"));
    try {
      runs.push(await runFirstAnswer(state));
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  }
  return {
    runs,
    median_first_answer_ms: median(runs.map((r) => r.first_answer_ms)),
    load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
}
