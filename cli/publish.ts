// `projintel publish`: render the scored warehouse into a new release on the target (the remote bucket or folder,
// else the state folder) and make it current.
import path from "node:path";
import type { Command } from "commander";
import { createContext, openWarehouse } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerPublish(program: Command): void {
  withStateFlags(program.command("publish"))
    .description(
      "Render every read endpoint as precomputed JSON into a new release on the target, then flip the current pointer.",
    )
    .option(
      "--target <location>",
      "where the release goes: s3://bucket/prefix (endpoint and keys from AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or a folder (default: PROJINTEL_REMOTE, else the state folder)",
    )
    .option(
      "--force",
      "publish even when the release would shrink below the gate (PROJINTEL_PUBLISH__MIN_SHARE_OF_PREVIOUS)",
    )
    .option(
      "--report-json <file>",
      "also write the publish report (objects uploaded, copied and skipped, bytes, seconds) to this file",
    )
    .addHelpText(
      "after",
      `
Only objects whose sha256 changed since the live release are uploaded; the others are copied within the target.
The pointer releases/current.json is written last, once every object is confirmed. An interrupted publish is
resumed by the next one of the same night. Examples:
  projintel publish
  projintel publish --target s3://my-bucket/projintel
  PROJINTEL_S3__FORCE_PATH_STYLE=true AWS_ENDPOINT_URL_S3=http://127.0.0.1:9000 projintel publish --target s3://releases/api`,
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const [{ publishRelease }, { writeJsonAtomic }, { openStorage }] = await Promise.all([
        import("../publish/release.ts"),
        import("../core/files.ts"),
        import("../core/storage-url.ts"),
      ]);
      const target: string | undefined = flags.target ?? config.remote;
      // resolved before the warehouse opens: a malformed location fails at once
      const storage = target === undefined ? undefined : await openStorage(target, config);
      const db = await openWarehouse(config);
      try {
        const report = await publishRelease({ config, db, logger, force: Boolean(flags.force), storage });
        if (flags.reportJson) await writeJsonAtomic(path.resolve(flags.reportJson), report);
        printSummary({ publish: report });
      } finally {
        db.close();
      }
    });
}
