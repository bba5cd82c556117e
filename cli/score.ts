// `projintel score`: run the SQL transforms and scores over the warehouse for the run date, then copy the public
// tables to their own DuckDB file (what `projintel sql` and the SQL endpoint read).
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";
import { createContext, dayFlag, openWarehouse } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerScore(program: Command): void {
  // no --sim: scoring reads the warehouse only, whatever the rows were collected from
  withStateFlags(program.command("score"))
    .description(
      "Classify and score every tracked repository in SQL (raw_* → feat_* → score_* → public tables), then build the public database.",
    )
    .option(
      "--date <YYYY-MM-DD>",
      "the night to score (default today, UTC): the run date its rows were collected for",
    )
    .option("--no-public-db", "leave the public database (projintel sql) as it is")
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = dayFlag("date", flags.date) ?? isoDay(new Date());
      const [{ score }, { publishPublicDb }] = await Promise.all([
        import("../pipeline/score.ts"),
        import("../pipeline/public-db.ts"),
      ]);
      const db = await openWarehouse(config);
      try {
        const report = await score({ db, runDate, logger });
        printSummary({ score: report });
        if (flags.publicDb) {
          const built = await publishPublicDb({ db, stateRoot: statePaths(config).root, runDate });
          logger.info("score: public database built", { ...built });
        }
      } finally {
        db.close();
      }
    });
}
