// `projintel collect`: fetch every source for the run date into the warehouse's raw_* tables.
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { createContext, dayFlag, openWarehouse, resolveRunDate } from "./context.ts";
import { withSourceFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerCollect(program: Command): void {
  withSourceFlags(program.command("collect"))
    .description(
      "Fetch every source (GitHub, PyPI, npm, Docker Hub, Hugging Face, Hacker News, arXiv) for the run date into the warehouse; resumes an interrupted run.",
    )
    .option("--report-json <file>", "also write the run report as JSON to this file")
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = await resolveRunDate(config, dayFlag("date", flags.date));
      const { collect } = await import("../pipeline/collect.ts");
      const { writeManifest } = await import("../pipeline/nightly.ts");
      const db = await openWarehouse(config);
      try {
        const started = new Date().toISOString();
        const report = await collect({ config, db, logger, runDate, stateDir: statePaths(config).root });
        const failed = report.sources.some((s) => s.status !== "ok");
        await writeManifest(
          config,
          {
            run_date: runDate,
            started_at: started,
            finished_at: new Date().toISOString(),
            status: failed ? "degraded" : "ok",
            durations_ms: { collect: report.duration_ms, total: report.duration_ms },
            collect: report,
          },
          flags.reportJson,
        );
        printSummary({ collect: report });
      } finally {
        db.close();
      }
    });
}
