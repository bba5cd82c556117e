// The demo's history: replay the nights the state folder has not seen, from `first` to the demo's date, into the
// real warehouse (earlier nights GitHub only, the last every source) and publish after the last. Runs in the
// background of a serving demo (the shim picks the new release up from its pointer) or alone with --no-serve.
import { statePaths } from "../core/config.ts";
import type { LogSink } from "../core/log.ts";
import type { StageLine } from "../core/progress.ts";
import type { ReplayReport } from "../nightly/replay.ts";
import { type CommonFlags, createContext, openWarehouse } from "./context.ts";
import type { DemoPlan } from "./demo-run.ts";
import { demoGithub, SIM_STATS_RETRY_MS } from "./options.ts";

/**
 * GitHub REST requests per token on the demo's earlier nights: the contributor rotation's floor takes 77–80 of them
 * (every repository with 100+ stars of the 3,000-repository world counted within 14 days; 66% had a count at 50),
 * leaving the activity (commit weeks, issue response) about two repositories a night. 800 on every night (the last
 * night's budget) reads about 120 a night but took the 35 nights 38.6 minutes against 12.2 (issue 34, load ~12).
 */
export const DEMO_EARLIER_REST_BUDGET = 100;
const DAY_MS = 86_400_000;

export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The line saying what the history replays, printed before the API's examples. */
export function historyStarts(line: StageLine, plan: Pick<DemoPlan, "first" | "date" | "serve">): void {
  const nights = daysBetween(plan.first, plan.date) + 1;
  line(
    "history",
    `replaying ${nights} night${nights === 1 ? "" : "s"}, ${plan.first} to ${plan.date}${plan.serve ? ", in the background" : ""}`,
  );
}

export async function replayHistory(options: {
  flags: CommonFlags;
  plan: DemoPlan;
  sink: LogSink;
  line: StageLine;
  signal?: AbortSignal;
  /** Called once the last night's release is published, e.g. to serve it at once. */
  published?: () => Promise<unknown>;
}): Promise<ReplayReport> {
  const { flags, plan, sink, line } = options;
  const nights = daysBetween(plan.first, plan.date) + 1;
  const [{ startSimThread }, { replayNights }, { SOURCES }] = await Promise.all([
    import("../sim/thread.ts"),
    import("../nightly/replay.ts"),
    import("../pipeline/sources/index.ts"),
  ]);
  const base = createContext(flags, {}, sink);
  const sim = await startSimThread({
    repos: plan.repos,
    seed: plan.seed,
    date: plan.first,
    anchor: plan.anchor,
    port: 0,
    logLevel: plan.verbose ? base.config.logLevel : "warn",
  });
  // the port the demo serves on: the release's absolute links are made from it (core/config.ts localBaseUrl)
  const port = plan.port === undefined ? {} : { port: plan.port };
  const { config, logger } = createContext(
    flags,
    { ...port, simUrl: sim.url, github: demoGithub(plan.restBudget) },
    sink,
  );
  const db = await openWarehouse(config);
  let report: ReplayReport;
  try {
    report = await replayNights({
      config,
      db,
      logger,
      nights,
      force: true,
      // earlier nights refresh the tracked repositories from GitHub only (stars, activity, stages); the last one
      // collects every source and searches for every repository created meanwhile
      earlierSources: SOURCES.filter((s) => s.name === "github" || s.name === "github_rest"),
      earlierConfig: createContext(
        flags,
        {
          ...port,
          simUrl: sim.url,
          github: {
            restBudget: Math.min(plan.restBudget, DEMO_EARLIER_REST_BUDGET),
            statsRetryMs: SIM_STATS_RETRY_MS,
            discovery: "off",
          },
        },
        sink,
      ).config,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    db.close();
    await sim.close();
  }
  const done = report.nights.length;
  if (report.stopped) {
    line("history", `stopped after ${done} of ${nights} nights; the next start goes on from there`);
  } else {
    await options.published?.();
    const { readPointer } = await import("../publish/layout.ts");
    const { createLocalStorage } = await import("../core/storage.ts");
    const pointer = await readPointer(createLocalStorage(statePaths(config).root));
    line(
      "history",
      `${done} nights replayed, ${report.first} to ${report.last}; release ${pointer?.release_id} is live`,
      report.duration_ms,
    );
  }
  logger.info("demo: nights replayed", { first: report.first, last: report.last, ms: report.duration_ms });
  return report;
}
