// `projintel score`: run the SQL transforms and scores over the warehouse for the run date.
import type { Command } from "commander";
import { createContext, dayFlag, openWarehouse, resolveRunDate } from "./context.ts";
import { withSourceFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerScore(program: Command): void {
  withSourceFlags(program.command("score"))
    .description("Classify and score every tracked repository in SQL (raw_* → feat_* → score_*).")
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = await resolveRunDate(config, dayFlag("date", flags.date));
      const { score } = await import("../pipeline/score.ts");
      const db = await openWarehouse(config);
      try {
        printSummary({ score: await score({ db, runDate, logger }) });
      } finally {
        db.close();
      }
    });
}
