// `projintel replay`: run the nightly job over N simulated nights in a row (advancing the simulator's clock a day
// between them), so that history, star deltas and lifecycle transitions exist — for tests, demos and benchmarks.
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { createContext, dayFlag, intFlag, openWarehouse } from "./context.ts";
import { DEMO_REST_BUDGET, SIM_STATS_RETRY_MS, withStateFlags } from "./options.ts";

const DAY_MS = 86_400_000;

export function registerReplay(program: Command): void {
  withStateFlags(program.command("replay"))
    .description(
      "Replay N simulated nights: nightly for the simulator's date, advance its clock a day, again; publish after the last.",
    )
    .requiredOption("--nights <n>", "nights to run (1 to 400)")
    .option("--sim <url>", "drive a running simulator (its clock moves); without it one is started here")
    .option(
      "--start <YYYY-MM-DD>",
      "first night when starting a simulator here (default: so the last night is today)",
    )
    .option("--repos <n>", "repositories in the started simulator's world", "3000")
    .option("--seed <n>", "the started world's seed", "42")
    .option(
      "--anchor <YYYY-MM-DD>",
      "the date the started world is generated around (default: its first night)",
    )
    .option("--publish-every", "publish a release every night, not only after the last")
    .option(
      "--github-only",
      "collect only GitHub (GraphQL and REST) on every night but the last, which collects all",
    )
    .option("--rest-budget <n>", "GitHub REST requests per token a night", DEMO_REST_BUDGET)
    .option("--force", "publish even when the release would shrink below the gate")
    .addHelpText(
      "after",
      `
Examples:
  projintel replay --nights 35 --state-dir /tmp/pis          # 35 nights ending today, 3,000 repositories
  projintel replay --nights 7 --sim http://127.0.0.1:9000    # a running simulator, from its clock on`,
    )
    .action(async (flags) => {
      const nights = intFlag("nights", flags.nights, 1, 400) as number;
      const repos = intFlag("repos", flags.repos, 1, 1_000_000) as number;
      const seed = intFlag("seed", flags.seed, 0, 2 ** 31 - 1) as number;
      const start = dayFlag("start", flags.start) ?? isoDay(new Date(Date.now() - (nights - 1) * DAY_MS));
      const anchor = dayFlag("anchor", flags.anchor) ?? start;
      const restBudget = intFlag("rest-budget", flags.restBudget, 0, 1_000_000) as number;
      const base = createContext(flags);
      const [{ startSimThread }, { replayNights }, { SOURCES }] = await Promise.all([
        import("../sim/thread.ts"),
        import("../nightly/replay.ts"),
        import("../pipeline/sources/index.ts"),
      ]);
      const sim = flags.sim
        ? undefined
        : await startSimThread({ repos, seed, date: start, anchor, port: 0, logLevel: base.config.logLevel });
      const { config, logger } = createContext(flags, {
        simUrl: sim ? sim.url : flags.sim,
        github: { restBudget, statsRetryMs: SIM_STATS_RETRY_MS },
      });
      const db = await openWarehouse(config);
      try {
        const report = await replayNights({
          config,
          db,
          logger,
          nights,
          publishEvery: Boolean(flags.publishEvery),
          force: Boolean(flags.force),
          ...(flags.githubOnly
            ? { earlierSources: SOURCES.filter((s) => s.name === "github" || s.name === "github_rest") }
            : {}),
        });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } finally {
        db.close();
        await sim?.close();
      }
    });
}
