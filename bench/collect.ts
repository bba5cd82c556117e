// Collect at scale: `projintel collect` against a simulator of N repositories (220,000 by default) in its own
// process, night after night on one state folder. Night 1 is the cold start (every repository new: every
// registry name looked up, every repository's details in full); nights 2–4 are the steady state the
// nightly job lives in (tiered details, known names refreshed, misses re-probed weekly), and their median is
// the figure. Each night gets fresh GitHub tokens (the simulator's hourly budget follows wall time), as many
// as its points need: the report's github_graphql_points says how many a real run would use.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readCollectReport } from "./children.ts";
import { type Measurement, measureCommand, median } from "./measure.ts";
import { CLI, startSim } from "./pipeline.ts";

/** GraphQL points per token and hour, as GitHub grants them. */
const POINTS_PER_TOKEN = 5_000;

interface Night extends Measurement {
  night: number;
  repos_total: number;
  repos_refreshed: number;
  requests: Record<string, number>;
  requests_total: number;
  github_graphql_points: number;
  /** Tokens a real run would need to spend these points within one hour. */
  tokens_needed: number;
  source_ms: Record<string, number>;
}

async function night(sim: string, state: string, n: number, tokens: number): Promise<Night> {
  const report = path.join(state, `report-${n}.json`);
  const names = Array.from({ length: tokens }, (_, k) => `bench-night${n}-${k}-${Date.now()}`);
  const measured = await measureCommand(
    process.execPath,
    [CLI, "collect", "--sim", sim, "--state-dir", state, "--log-level", "warn", "--report-json", report],
    { env: { PROJINTEL_GITHUB__TOKENS: names.join(",") } },
  );
  const collect = await readCollectReport(report);
  const failed = collect.sources.filter((s) => s.status !== "ok");
  if (failed.length > 0)
    throw new Error(
      `collect night ${n}: ${failed.map((s) => `${s.source} failed (${s.error ?? "no error given"})`).join("; ")}`,
    );
  const { requests } = collect;
  return {
    night: n,
    ...measured,
    repos_total: collect.repos_total,
    repos_refreshed: collect.repos_refreshed,
    requests,
    // `requests` has one entry per source, github_rest (star history and activity) included.
    requests_total: Object.values(requests).reduce((a, b) => a + b, 0),
    github_graphql_points: collect.github_graphql_points,
    tokens_needed: Math.max(1, Math.ceil(collect.github_graphql_points / POINTS_PER_TOKEN)),
    source_ms: Object.fromEntries(collect.sources.map((s) => [s.source, s.duration_ms])),
  };
}

export async function benchCollect(repos: number, nights = 4) {
  const date = "2026-11-20";
  const sim = await startSim(repos, date);
  const state = await mkdtemp(path.join(os.tmpdir(), "projintel-collect-"));
  const runs: Night[] = [];
  try {
    for (let n = 1; n <= nights; n++) {
      if (n > 1) {
        const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
        if (!advanced.ok) throw new Error(`the simulator refused to advance: ${advanced.status}`);
      }
      // The cold night needs about 10 points per 100 repositories; later nights far fewer.
      const tokens = n === 1 ? Math.ceil(repos / 40_000) + 1 : Math.ceil(repos / 200_000) + 1;
      const run = await night(sim.url, state, n, tokens);
      process.stderr.write(`collect night ${n}: ${JSON.stringify(run)}\n`);
      if (run.exit_code !== 0) throw new Error(`collect night ${n} failed (exit ${run.exit_code})`);
      runs.push(run);
    }
  } finally {
    sim.child.kill("SIGTERM");
    await rm(state, { recursive: true, force: true });
  }
  const steady = runs.slice(1);
  return {
    repos,
    cold: runs[0],
    steady_nights: steady,
    median_steady_wall_ms: median(steady.map((r) => r.wall_ms)),
    median_steady_peak_rss_mib: median(steady.map((r) => r.peak_rss_mib)),
    median_steady_requests_per_repo:
      Math.round(median(steady.map((r) => r.requests_total / r.repos_total)) * 1000) / 1000,
    target: { wall_ms: 180_000, peak_rss_mib: 1536 },
  };
}
