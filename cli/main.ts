// The projintel program: one commander program, one file per command (each imports its stage lazily, so
// `--help` is instant). The only place that sets exit codes:
// 0 success, 1 a stage failed (the message says what and what to do), 2 bad usage or configuration.
import { Command, CommanderError } from "commander";
import { ConfigError, describeError } from "../core/errors.ts";
import { registerClassify } from "./classify.ts";
import { registerCollect } from "./collect.ts";
import { registerDemo } from "./demo.ts";
import { registerFeedback } from "./feedback.ts";
import { registerHistory } from "./history.ts";
import { registerKeys } from "./keys.ts";
import { registerMcp } from "./mcp.ts";
import { registerMethodology } from "./methodology.ts";
import { registerNightly } from "./nightly.ts";
import { registerPublish } from "./publish.ts";
import { registerRate } from "./rate.ts";
import { registerReplay } from "./replay.ts";
import { registerReport } from "./report.ts";
import { registerScore } from "./score.ts";
import { registerServe } from "./serve.ts";
import { registerSim } from "./sim.ts";
import { registerSources } from "./sources.ts";
import { registerSql } from "./sql.ts";
import { registerState } from "./state.ts";

const program = new Command("projintel")
  .description(
    "Project Intelligence Service: collect open-source AI repositories, score them in DuckDB, publish a release, serve the API.",
  )
  .version("0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of [
  registerSim,
  registerCollect,
  registerScore,
  registerPublish,
  registerServe,
  registerKeys,
  registerNightly,
  registerDemo,
  registerReplay,
  registerReport,
  registerHistory,
  registerState,
  registerSources,
  registerClassify,
  registerRate,
  registerSql,
  registerMethodology,
  registerFeedback,
  registerMcp,
]) {
  register(program);
}

program.addHelpText(
  "after",
  `
Settings come from PROJINTEL_* environment variables (see docs/cli.md), flags override them.
Examples:
  projintel sim --repos 2000 --seed 7 --port 9000 --date 2026-11-01
  PROJINTEL_SIM_URL=http://127.0.0.1:9000 projintel nightly
  projintel serve --port 8787`,
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`projintel: ${describeError(error)}\n`);
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  }
}
