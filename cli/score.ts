// `projintel score`: run the SQL transforms and scores over the warehouse for the run date, then copy the public
// tables to their own DuckDB file (what `projintel sql` and the SQL endpoint read). With --shards n it first merges
// the night's collection shards from the remote, and writes the night's history and run manifest as the nightly does.
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { ConfigError, describeError, inStage } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { openStorage } from "../core/storage-url.ts";
import { createContext, dayFlag, openWarehouse } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { printSummary } from "./summary.ts";

interface ShardFlags {
  shards: string;
  remote?: string;
  carryMissing?: boolean;
}

/** Merges the night's shards, scores, writes the history and the run manifest; true when shards were carried. */
async function scoreShards(config: Config, db: Db, logger: Logger, runDate: string, flags: ShardFlags) {
  const [{ parseShardCount }, { mergeShards }, { score }, { writeHistory }, { writeManifest }] =
    await Promise.all([
      import("../pipeline/schedule/shards.ts"),
      import("../pipeline/shards.ts"),
      import("../pipeline/score.ts"),
      import("../pipeline/history.ts"),
      import("../nightly/manifest.ts"),
    ]);
  const count = parseShardCount(flags.shards);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const paths = statePaths(config);
  const storage = await openStorage(flags.remote ?? config.remote ?? paths.root, config);
  let stage = "merge";
  const failed = async (error: unknown) => {
    // The night's run report says why it stopped (the nightly's job summary shows it); the release is untouched.
    await writeManifest(config, {
      run_date: runDate,
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      status: "failed",
      error: describeError(inStage(stage, error)),
      durations_ms: { total: Math.round(performance.now() - started) },
    });
    throw error;
  };
  const merged = await mergeShards({
    db,
    storage,
    runDate,
    count,
    carryMissing: flags.carryMissing ?? false,
    config,
    logger,
  }).catch(failed);
  stage = "score";
  const scored = await score({ db, runDate, logger }).catch(failed);
  stage = "history";
  const history = await writeHistory({ db, root: paths.history, runDate, logger }).catch(failed);
  const degraded = merged.report.carried.length > 0 || merged.collect.sources.some((s) => s.status !== "ok");
  const manifest = {
    run_date: runDate,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    status: degraded ? ("degraded" as const) : ("ok" as const),
    durations_ms: {
      collect: merged.collect.duration_ms,
      score: scored.duration_ms,
      history: history.duration_ms,
      total: Math.round(performance.now() - started),
    },
    collect: merged.collect,
    shards: merged.report,
    score: scored,
    history,
  };
  await writeManifest(config, manifest);
  printSummary({ shards: merged.report, score: scored });
}

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
    .option(
      "--shards <n>",
      "first merge the night's n collection shards (collect --shard i/n) from the remote, replacing its raw rows; then also write the night's history",
    )
    .option(
      "--remote <location>",
      "with --shards: where the shards are, s3://bucket/prefix or a folder (env PROJINTEL_REMOTE; default the state folder)",
    )
    .option(
      "--carry-missing",
      "with --shards: score even if shards did not finish; their repositories keep the previous night's values (projects.is_carried)",
    )
    .addHelpText(
      "after",
      `
Examples:
  projintel score --date 2026-11-24
  projintel score --shards 3 --remote s3://bucket/projintel --date 2026-11-24
  projintel score --shards 3 --carry-missing   # a shard failed: carry its repositories, flagged
An incomplete set of shards (one without done.json) is refused, naming the missing shards.`,
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const runDate = dayFlag("date", flags.date) ?? isoDay(new Date());
      if (flags.shards === undefined && (flags.remote || flags.carryMissing))
        throw new ConfigError(
          "--remote and --carry-missing are for merging shards: pass --shards n with them.",
          "Without --shards, score reads the warehouse as collected by `projintel collect`.",
        );
      const [{ score }, { publishPublicDb }] = await Promise.all([
        import("../pipeline/score.ts"),
        import("../pipeline/public-db.ts"),
      ]);
      const db = await openWarehouse(config);
      try {
        if (flags.shards !== undefined) await scoreShards(config, db, logger, runDate, flags);
        else printSummary({ score: await score({ db, runDate, logger }) });
        if (flags.publicDb) {
          // the remote the night is published to (publish's default target) holds the history parts it published
          const target = config.remote === undefined ? undefined : await openStorage(config.remote, config);
          const built = await publishPublicDb({
            db,
            stateRoot: statePaths(config).root,
            runDate,
            ...(target ? { target } : {}),
          });
          logger.info("score: public database built", { ...built });
        }
      } finally {
        db.close();
      }
    });
}
