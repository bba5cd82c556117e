// Faulted night (`npm run bench -- faults`): what share of the tracked repositories a nightly run still
// accounts for when 5% of the requests to the sources fail. Night 1 is a clean `nightly` against a simulator
// in its own process; each round copies its state, starts a fresh simulator of the same world, advances the
// clock a day and runs night 2 with faults on: every kind sim/faults.ts has (5xx, timeout, 403/429 rate
// limits with reset headers, malformed bodies), drawn with a different seed per round, with the collector's
// normal retries. From the warehouse (read-only, after the run): the share of tracked repositories that
// are fresh on night 2 or carried forward with is_stale (target ≥ 99.9%), and per raw table the entities
// a clean night 2 has and the faulted one lacks. From the run report and log: per source status, requests,
// retries by cause, quarantined, deferred batches, and wall time. Medians over the rounds.
// The simulator holds a "timeout" socket for BENCH_FAULT_HOLD_MS (default 2 s, the simulator's own default
// is 15 s; the client gives up after 30 s): the shares do not depend on it, the wall time does, a lot.
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SourceReport } from "../pipeline/collect.ts";
import { freshTokens, readCollectReport, runCli, simControl } from "./children.ts";
import { median } from "./measure.ts";
import { startSim } from "./pipeline.ts";
import { entityKeys, openWarehouseReadOnly, rawTables, repoCoverage } from "./warehouse-facts.ts";

const NIGHT_1 = "2026-11-20";
const NIGHT_2 = "2026-11-21";
export const FAULT_RATE = 0.05;
/** The target: share of repositories refreshed or carried forward with a staleness flag. */
export const TARGET_SHARE = 0.999;

type Causes = Record<string, number>;

function bump(counts: Record<string, Causes>, key: string, what: string): void {
  const tally = counts[key] ?? {};
  tally[what] = (tally[what] ?? 0) + 1;
  counts[key] = tally;
}

/** Retries per source and cause, from the HTTP client's "http: retrying" log lines. */
async function retriesFromLog(logFile: string) {
  const bySource: Record<string, Causes> = {};
  const events: Record<string, Causes> = {};
  const text = await readFile(logFile, "utf8").catch(() => "");
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { msg: string; source?: string; reason?: string };
    const source = entry.source ?? "?";
    if (entry.msg === "http: retrying") {
      const reason = entry.reason ?? "";
      const cause = reason.startsWith("network error")
        ? "timeout"
        : /rate limit/.test(reason)
          ? "rate_limit"
          : /malformed/.test(reason)
            ? "malformed"
            : /^5\d\d/.test(reason)
              ? "5xx"
              : reason.slice(0, 40);
      bump(bySource, source, cause);
    } else bump(events, source, entry.msg);
  }
  return { bySource, events };
}

interface Night2 {
  wall_ms: number;
  exit_code: number;
  state: string;
  report: Awaited<ReturnType<typeof readCollectReport>>;
  log: string;
  sim_faults: Record<string, Record<string, number>>;
  sim_requests: Record<string, number>;
}

async function runNight2(repos: number, night1: string, faults: object, label: string): Promise<Night2> {
  const state = await mkdtemp(path.join(os.tmpdir(), `projintel-faults-${label}-`));
  await cp(night1, state, { recursive: true });
  const sim = await startSim(repos, NIGHT_1);
  try {
    await simControl(sim.url, "/_sim/advance?days=1", "POST");
    await simControl(sim.url, "/_sim/faults", "POST", faults);
    const reportFile = path.join(state, "night2.json");
    const log = path.join(state, "night2.log");
    const run = await runCli(
      ["nightly", "--sim", sim.url, "--state-dir", state, "--log-level", "warn", "--force"].concat([
        "--report-json",
        reportFile,
      ]),
      log,
      freshTokens(label),
    );
    if (run.exit_code !== 0) throw new Error(`faulted night (${label}) exited ${run.exit_code}; see ${log}`);
    const stats = (await simControl(sim.url, "/_sim/stats")) as {
      requests: Record<string, number>;
      faults: Record<string, Record<string, number>>;
    };
    return {
      ...run,
      state,
      report: await readCollectReport(reportFile),
      log,
      sim_faults: stats.faults,
      sim_requests: stats.requests,
    };
  } finally {
    sim.child.kill("SIGTERM");
  }
}

async function keysByTable(state: string): Promise<Map<string, Set<string>>> {
  const db = await openWarehouseReadOnly(state);
  try {
    const keys = new Map<string, Set<string>>();
    for (const table of await rawTables(db)) keys.set(table, await entityKeys(db, table, NIGHT_2));
    return keys;
  } finally {
    db.close();
  }
}

function perSource(sources: SourceReport[], retries: Record<string, Causes>) {
  return Object.fromEntries(
    sources.map((s) => [
      s.source,
      {
        status: s.status,
        requests: s.requests,
        retries: retries[s.source] ?? {},
        quarantined: s.quarantined,
        batches_deferred: s.batches_deferred,
        rows: s.rows,
        duration_ms: s.duration_ms,
        ...(s.error ? { error: s.error } : {}),
      },
    ]),
  );
}

type Round = Awaited<ReturnType<typeof measureRound>>;
type SourceFigures = ReturnType<typeof perSource>[string];

/** One faulted night 2 from a copy of night 1, measured against the clean night 2's entities. */
async function measureRound(
  repos: number,
  night1: string,
  round: number,
  holdMs: number,
  reference: Map<string, Set<string>>,
) {
  const night = await runNight2(repos, night1, { rate: FAULT_RATE, seed: round, holdMs }, `round${round}`);
  try {
    const db = await openWarehouseReadOnly(night.state);
    const coverage = await repoCoverage(db, NIGHT_2).finally(() => db.close());
    const faulted = await keysByTable(night.state);
    const lacking = Object.fromEntries(
      [...reference].map(([table, keys]) => {
        const got = faulted.get(table) ?? new Set<string>();
        const missing = [...keys].filter((k) => !got.has(k)).length;
        return [table, { clean: keys.size, faulted: got.size, lacking: missing }];
      }),
    );
    const log = await retriesFromLog(night.log);
    return {
      round,
      wall_ms: night.wall_ms,
      coverage,
      collector: {
        repos_total: night.report.repos_total,
        repos_refreshed: night.report.repos_refreshed,
        repos_stale: night.report.repos_stale,
        quarantined: night.report.quarantined,
      },
      sources: perSource(night.report.sources, log.bySource),
      entities_lacking_vs_clean_night: lacking,
      faults_injected: night.sim_faults,
      log_events: log.events,
    };
  } finally {
    await rm(night.state, { recursive: true, force: true });
  }
}

export async function benchCollectFaults(repos: number, rounds = 3, holdMs = 2_000) {
  const work = await mkdtemp(path.join(os.tmpdir(), "projintel-faults-"));
  const night1 = path.join(work, "night1");
  let cleanState: string | undefined;
  try {
    const sim = await startSim(repos, NIGHT_1);
    let first: Awaited<ReturnType<typeof runCli>>;
    try {
      first = await runCli(
        ["nightly", "--sim", sim.url, "--state-dir", night1, "--log-level", "warn", "--force"],
        path.join(work, "night1.log"),
        freshTokens("night1"),
      );
    } finally {
      sim.child.kill("SIGTERM");
    }
    if (first.exit_code !== 0) throw new Error(`the clean night 1 exited ${first.exit_code}`);

    // A clean night 2 of the same world: what the faulted nights should have fetched.
    const clean = await runNight2(repos, night1, { rate: 0 }, "clean");
    cleanState = clean.state;
    const reference = await keysByTable(clean.state);
    process.stderr.write(`faults: night 1 ${first.wall_ms} ms, clean night 2 ${clean.wall_ms} ms\n`);

    const runs: Round[] = [];
    for (let round = 1; round <= rounds; round++) {
      const run = await measureRound(repos, night1, round, holdMs, reference);
      process.stderr.write(`faults round ${round}: ${JSON.stringify(run)}\n`);
      runs.push(run);
    }
    const shares = runs.map((r) => r.coverage.share);
    const names = Object.keys(runs[0]?.sources ?? {});
    return {
      repos,
      fault_rate: FAULT_RATE,
      fault_kinds: ["5xx", "timeout", "rate_limit", "malformed"],
      timeout_hold_ms: holdMs,
      target_share: TARGET_SHARE,
      median_share: median(shares),
      min_share: Math.min(...shares),
      meets_target: median(shares) >= TARGET_SHARE,
      median_wall_ms: median(runs.map((r) => r.wall_ms)),
      clean_night2_wall_ms: clean.wall_ms,
      night1_wall_ms: first.wall_ms,
      median_per_source: Object.fromEntries(
        names.map((name) => {
          const of = (pick: (s: SourceFigures) => number) =>
            median(runs.map((r) => pick(r.sources[name] as SourceFigures)));
          return [
            name,
            {
              ok_rounds: runs.filter((r) => r.sources[name]?.status === "ok").length,
              requests: of((s) => s.requests),
              retries: of((s) => Object.values(s.retries).reduce((a: number, b: number) => a + b, 0)),
              quarantined: of((s) => s.quarantined),
              batches_deferred: of((s) => s.batches_deferred),
              duration_ms: of((s) => s.duration_ms),
            },
          ];
        }),
      ),
      runs,
    };
  } finally {
    if (cleanState) await rm(cleanState, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}
