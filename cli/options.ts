// Flags shared by several commands, declared once.
import type { Command } from "commander";

/**
 * GitHub REST requests per token in a demo or replayed night: under one minute's worth of GitHub's secondary
 * limit (900), so the pacer never has to wait a minute and simulated nights stay quick (the nightly default is
 * 1,800).
 */
export const DEMO_REST_BUDGET = "800";

/** The pause before asking the simulator again for commit statistics it answered 202 for (it computes at once). */
export const SIM_STATS_RETRY_MS = 200;

/** GitHub settings of a demo night that collects every source: tonight's, or the last replayed one. */
export function demoGithub(restBudget: number) {
  return { restBudget, statsRetryMs: SIM_STATS_RETRY_MS, discovery: "full" };
}

/** --state-dir alone, for commands that read the state folder but log nothing (sql, history list). */
export function withStateDirFlag(command: Command): Command {
  return command.option(
    "--state-dir <dir>",
    "state folder: warehouse, runs, releases, quotas (env PROJINTEL_STATE_DIR, default var/)",
  );
}

export function withStateFlags(command: Command): Command {
  return withStateDirFlag(command).option(
    "--log-level <level>",
    "debug, info, warn or error (env PROJINTEL_LOG_LEVEL, default info)",
  );
}

export function withSourceFlags(command: Command): Command {
  return withStateFlags(command)
    .option(
      "--sim <url>",
      "collect from a running simulator instead of the real sources (env PROJINTEL_SIM_URL)",
    )
    .option("--date <YYYY-MM-DD>", "run date (default: the simulator's clock with --sim, else today in UTC)");
}
