// `projintel publish`: render the scored warehouse into a new release and make it current.
import path from "node:path";
import type { Command } from "commander";
import { createContext, openWarehouse } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerPublish(program: Command): void {
  withStateFlags(program.command("publish"))
    .description(
      "Render every read endpoint as precomputed JSON into a new release, then flip the current pointer.",
    )
    .option(
      "--force",
      "publish even when the release would shrink below the gate (PROJINTEL_PUBLISH__MIN_SHARE_OF_PREVIOUS)",
    )
    .option(
      "--report-json <file>",
      "also write the publish report (files written and copied, bytes) to this file",
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const [{ publishRelease }, { writeJsonAtomic }] = await Promise.all([
        import("../publish/release.ts"),
        import("../core/files.ts"),
      ]);
      const db = await openWarehouse(config);
      try {
        const report = await publishRelease({ config, db, logger, force: Boolean(flags.force) });
        if (flags.reportJson) await writeJsonAtomic(path.resolve(flags.reportJson), report);
        printSummary({ publish: report });
      } finally {
        db.close();
      }
    });
}
