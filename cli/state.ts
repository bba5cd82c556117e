// `projintel state pull|push`: the durable state (history, ETag cache, linked seeds, run reports) on a remote, so a
// run on a fresh machine (a CI runner) continues the last night's history: pull before the night, push after it.
import type { Command } from "commander";
import type { Config } from "../core/config.ts";
import { statePaths } from "../core/config.ts";
import { ConfigError } from "../core/errors.ts";
import type { Storage } from "../core/storage.ts";
import { createContext } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

const REMOTE_FLAG = [
  "--remote <location>",
  "s3://bucket/prefix or a folder; the state is under its state/ (env PROJINTEL_REMOTE)",
] as const;

/** The remote a command works with: --remote, else config.remote; neither is a ConfigError naming `what`. */
export async function remoteStorage(
  config: Config,
  flag: string | undefined,
  what: string,
): Promise<Storage> {
  const location = flag ?? config.remote;
  if (!location) {
    throw new ConfigError(
      `No remote to ${what}: --remote is not given and PROJINTEL_REMOTE is not set.`,
      "Pass --remote s3://<bucket>/<prefix> (or a folder), or set PROJINTEL_REMOTE.",
    );
  }
  const { openStorage } = await import("../core/storage-url.ts");
  return openStorage(location, config);
}

export function registerState(program: Command): void {
  const state = program
    .command("state")
    .description(
      "The durable state on a remote (history Parquet, ETag cache, linked seeds, run reports): pull it onto a fresh machine, push it back after a night.",
    )
    .addHelpText(
      "after",
      `
Keys, quotas, the server secret and releases are not state. The remote's state/index.json is written last, so a
pull always sees one whole push.
Examples:
  projintel state pull --remote s3://bucket/projintel
  projintel state pull --recent --raw-only --remote s3://bucket/projintel   # a collect job
  projintel state push --remote s3://bucket/projintel`,
    );
  withStateFlags(state.command("pull"))
    .description(
      "Download the state files this folder lacks, then build a missing warehouse from the latest warehouse snapshot and the history's nights after it.",
    )
    .option(...REMOTE_FLAG)
    .option(
      "--recent",
      "Download only the history's nights after the snapshot (every nightly job: a publish takes the older nights, and the current month packed, from the previous release)",
    )
    .option(
      "--raw-only",
      "Pull and restore only what collecting reads, the raw tables (a nightly collect job); scoring, publishing or replaying on that warehouse is refused, and a pull without it replaces it",
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const storage = await remoteStorage(config, flags.remote, "pull the state from");
      const { pullState } = await import("../pipeline/state/sync.ts");
      const report = await pullState({
        storage,
        stateRoot: statePaths(config).root,
        logger,
        concurrency: config.s3.concurrency,
        recent: flags.recent === true,
        rawOnly: flags.rawOnly === true,
      });
      printSummary({ state_pull: report });
    });
  withStateFlags(state.command("push"))
    .description(
      "Upload the state files the remote lacks or holds other bytes of, then its index (an unchanged folder uploads nothing).",
    )
    .option(...REMOTE_FLAG)
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const storage = await remoteStorage(config, flags.remote, "push the state to");
      const { pushState } = await import("../pipeline/state/sync.ts");
      const report = await pushState({
        storage,
        stateRoot: statePaths(config).root,
        logger,
        concurrency: config.s3.concurrency,
      });
      printSummary({ state_push: report });
    });
}
