// `projintel collect`: fetch every source for the run date into the warehouse's raw_* tables; with --shard i/n, one
// stable 1/n of the night, uploaded as Parquet to the remote for `projintel score --shards n` to merge.
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { AppError, ConfigError } from "../core/errors.ts";
import { openStorage } from "../core/storage-url.ts";
import { createContext, dayFlag, openWarehouse, resolveRunDate } from "./context.ts";
import { withSourceFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

export function registerCollect(program: Command): void {
  withSourceFlags(program.command("collect"))
    .description(
      "Fetch every source (GitHub, PyPI, npm, Docker Hub, Hugging Face, Hacker News, arXiv) for the run date into the warehouse; resumes an interrupted run.",
    )
    .option("--report-json <file>", "also write the run report as JSON to this file")
    .option(
      "--shard <i/n>",
      "collect only shard i of n (1-based, n ≤ 64): a stable share of the repositories and of discovery, with the i-th GitHub token; uploaded to the remote",
    )
    .option(
      "--remote <location>",
      "with --shard: where the shard's rows go, s3://bucket/prefix or a folder (env PROJINTEL_REMOTE; default the state folder)",
    )
    .addHelpText(
      "after",
      `
Examples:
  projintel collect --sim http://127.0.0.1:8900
  projintel collect --shard 2/3 --remote s3://bucket/projintel --date 2026-11-24
Each shard writes nights/<date>/shards/<i>-of-<n>/<raw table>.parquet and, last, done.json; then
projintel score --shards <n> merges them.`,
    )
    .action(async (flags) => {
      const [{ parseShard }, { collect }, { writeManifest }, shards] = await Promise.all([
        import("../pipeline/schedule/shards.ts"),
        import("../pipeline/collect.ts"),
        import("../nightly/manifest.ts"),
        import("../pipeline/shards.ts"),
      ]);
      const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
      if (flags.remote && !shard)
        throw new ConfigError(
          "--remote is for a shard's upload: pass --shard i/n with it.",
          "A whole night stays in the state folder; `projintel state push` saves it.",
        );
      const context = createContext(flags);
      const { logger } = context;
      const config = shard ? shards.shardConfig(context.config, shard) : context.config;
      const runDate = await resolveRunDate(config, dayFlag("date", flags.date));
      const root = statePaths(config).root;
      const storage = shard ? await openStorage(flags.remote ?? config.remote ?? root, config) : undefined;
      const db = await openWarehouse(config, { rawOnly: "allowed" });
      try {
        const startedMs = Date.now();
        const started = new Date(startedMs).toISOString();
        const report = await collect({
          config,
          db,
          logger,
          runDate,
          stateDir: root,
          ...(shard ? { shard } : {}),
        });
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
        if (shard && storage) {
          const github = report.sources.find((s) => s.source === "github");
          if (github?.status !== "ok") {
            throw new AppError(
              `Shard ${flags.shard} of ${runDate} is not uploaded: GitHub failed (${github?.error ?? "not run"}).`,
              {
                hint: `Run the shard again (finished batches are kept); scoring refuses the night without it unless --carry-missing.`,
                stage: "collect",
              },
            );
          }
          await shards.uploadShard({
            db,
            storage,
            config,
            runDate,
            shard,
            report,
            logger,
            collectStartedMs: startedMs,
          });
        }
      } finally {
        db.close();
      }
    });
}
