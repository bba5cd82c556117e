// `projintel demo` (what `npm start` runs): start the simulator, run the nightly pipeline against it,
// publish to the local release folder and serve the API on localhost — a working service in one command.
import type { Command } from "commander";
import { isoDay } from "../pipeline/core/clock.ts";
import { createContext, dayFlag, intFlag, openWarehouse } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { waitForSignal } from "./signals.ts";

/** The demo's world is anchored here, so today's run extends yesterday's history instead of starting a new world. */
const DEMO_ANCHOR = "2026-11-01";
/**
 * GitHub REST requests per token in the demo's night: under one minute's worth of GitHub's secondary limit
 * (900), so the pacer never has to wait a minute and the demo stays quick (the nightly default is 2,000).
 */
const DEMO_REST_BUDGET = "800";

export function registerDemo(program: Command): void {
  withStateFlags(program.command("demo"))
    .description("Simulator → nightly → publish → API on localhost, end to end (what `npm start` runs).")
    .option("--repos <n>", "repositories in the simulated world", "3000")
    .option("--seed <n>", "world seed", "42")
    .option("--date <YYYY-MM-DD>", "the simulated world's date (default today, UTC)")
    .option(
      "--anchor <YYYY-MM-DD>",
      "the date the world is generated around; fixed so that the demo shows the same world on every day",
      DEMO_ANCHOR,
    )
    .option("--port <n>", "API port (env PROJINTEL_PORT, default 8787)")
    .option("--rest-budget <n>", "GitHub REST requests per token for the night", DEMO_REST_BUDGET)
    .option("--no-serve", "stop after publishing instead of serving the API")
    .action(async (flags) => {
      const port = intFlag("port", flags.port, 0, 65_535);
      const base = createContext(flags, port === undefined ? {} : { port });
      const date = dayFlag("date", flags.date) ?? isoDay(new Date());
      const repos = intFlag("repos", flags.repos, 1, 1_000_000) as number;
      const seed = intFlag("seed", flags.seed, 0, 2 ** 31 - 1) as number;
      const restBudget = intFlag("rest-budget", flags.restBudget, 0, 1_000_000) as number;
      const [{ startSimServer }, { runNightly }, { startServer }] = await Promise.all([
        import("../sim/index.ts"),
        import("../pipeline/nightly.ts"),
        import("../api-shim/server.ts"),
      ]);
      const anchor = dayFlag("anchor", flags.anchor) as string;
      const sim = await startSimServer({ repos, seed, date, anchor, port: 0, logger: base.logger });
      const { config, logger } = createContext(flags, {
        simUrl: sim.url,
        github: { restBudget },
        ...(port === undefined ? {} : { port }),
      });
      const db = await openWarehouse(config);
      try {
        const manifest = await runNightly({ config, db, logger, runDate: date, force: true });
        logger.info("demo: nightly finished", { status: manifest.status, run_date: date });
      } finally {
        db.close();
        await sim.close();
      }
      if (!flags.serve) return;
      const server = await startServer({ config, logger });
      const u = server.url;
      process.stdout.write(
        [
          "",
          `Project Intelligence Service is serving ${date}'s release on ${u}`,
          "Try:",
          `  curl '${u}/api/v1/quality?domain=rag'`,
          `  curl '${u}/api/v1/quality?domain=agents&limit=5&min_score=40'`,
          `  curl '${u}/api/v1/quality?domain=llm-inference&quality_tier=established&offset=10&limit=10'`,
          `  curl -i '${u}/api/v1/quality?domain=nope'      # 422 invalid_domain`,
          "Press Ctrl-C to stop.",
          "",
        ].join("\n"),
      );
      await waitForSignal();
      await server.close();
    });
}
