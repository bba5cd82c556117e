// `projintel nightly`: collect, score and publish in one run, writing the run's manifest. With a remote (--remote or
// PROJINTEL_REMOTE), the night restores the durable state from it first, writes the new state back, and publishes
// the public database and the release there.
import type { Command } from "commander";
import { createContext, dayFlag, openWarehouse, resolveRunDate } from "./context.ts";
import { withSourceFlags } from "./options.ts";
import { remoteStorage } from "./state.ts";
import { printSummary } from "./summary.ts";

export function registerNightly(program: Command): void {
  withSourceFlags(program.command("nightly"))
    .description("Run the whole pipeline: collect every source, score in SQL, publish a release.")
    .option("--force", "publish even when the release would shrink below the gate")
    .option("--report-json <file>", "also write the run manifest as JSON to this file")
    .option(
      "--remote <location>",
      "s3://bucket/prefix or a folder: pull the state from it, push the night's state and publish to it (env PROJINTEL_REMOTE)",
    )
    .addHelpText(
      "after",
      `
Examples:
  projintel nightly --sim http://127.0.0.1:8900
  projintel nightly --remote s3://bucket/projintel   # on an empty machine: continues the remote's history`,
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = await resolveRunDate(config, dayFlag("date", flags.date));
      const { runNightly, runRemoteNightly } = await import("../nightly/run.ts");
      const night = {
        config,
        logger,
        runDate,
        force: Boolean(flags.force),
        reportFile: flags.reportJson,
      };
      if (flags.remote ?? config.remote) {
        const storage = await remoteStorage(config, flags.remote, "run the night against");
        printSummary(await runRemoteNightly({ ...night, storage, openDb: () => openWarehouse(config) }));
        return;
      }
      const db = await openWarehouse(config);
      try {
        printSummary(await runNightly({ ...night, db }));
      } finally {
        db.close();
      }
    });
}
