// `projintel publish`: render the scored warehouse into a new release and make it current.
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
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const { publishRelease } = await import("../publish/release.ts");
      const db = await openWarehouse(config);
      try {
        printSummary({ publish: await publishRelease({ config, db, logger, force: Boolean(flags.force) }) });
      } finally {
        db.close();
      }
    });
}
