// Flags shared by several commands, declared once.
import type { Command } from "commander";

export function withStateFlags(command: Command): Command {
  return command
    .option(
      "--state-dir <dir>",
      "state folder: warehouse, runs, releases, quotas (env PROJINTEL_STATE_DIR, default var/)",
    )
    .option("--log-level <level>", "debug, info, warn or error (env PROJINTEL_LOG_LEVEL, default info)");
}

export function withSourceFlags(command: Command): Command {
  return withStateFlags(command)
    .option(
      "--sim <url>",
      "collect from a running simulator instead of the real sources (env PROJINTEL_SIM_URL)",
    )
    .option("--date <YYYY-MM-DD>", "run date (default: the simulator's clock with --sim, else today in UTC)");
}
