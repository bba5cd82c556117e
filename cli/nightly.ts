// `projintel nightly`: collect, score and publish in one run, writing the run's manifest.
import type { Command } from "commander";
import { createContext, dayFlag, openWarehouse, resolveRunDate } from "./context.ts";
import { withSourceFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerNightly(program: Command): void {
  withSourceFlags(program.command("nightly"))
    .description("Run the whole pipeline: collect every source, score in SQL, publish a release.")
    .option("--force", "publish even when the release would shrink below the gate")
    .option("--report-json <file>", "also write the run manifest as JSON to this file")
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = await resolveRunDate(config, dayFlag("date", flags.date));
      const { runNightly } = await import("../pipeline/nightly.ts");
      const db = await openWarehouse(config);
      try {
        const manifest = await runNightly({
          config,
          db,
          logger,
          runDate,
          force: Boolean(flags.force),
          reportFile: flags.reportJson,
        });
        printSummary(manifest);
      } finally {
        db.close();
      }
    });
}
