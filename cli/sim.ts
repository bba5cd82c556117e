// `projintel sim`: serve the simulated sources (GitHub GraphQL, PyPI, pypistats) until interrupted.
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { createContext, dayFlag, intFlag } from "./context.ts";
import { waitForSignal } from "./signals.ts";

export function registerSim(program: Command): void {
  program
    .command("sim")
    .description(
      "Serve a deterministic, evolving world of simulated AI repositories over the sources' real APIs\n(GitHub GraphQL and REST, PyPI, pypistats, npm, Docker Hub, Hugging Face, Hacker News, arXiv).",
    )
    .option("--repos <n>", "number of repositories in the world", "2000")
    .option("--seed <n>", "world seed: the same seed gives the same world", "1")
    .option("--port <n>", "port to listen on (0 picks a free one)", "9000")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--date <YYYY-MM-DD>", "the world's starting date (default today, UTC)")
    .option(
      "--anchor <YYYY-MM-DD>",
      "the date the world is generated around (default --date); keep it to restart the same world later",
    )
    .option("--log-level <level>", "debug, info, warn or error")
    .addHelpText(
      "after",
      `
The clock moves with POST /_sim/advance?days=N and is read with GET /_sim/clock.
Point the pipeline at it with --sim URL or PROJINTEL_SIM_URL=URL.`,
    )
    .action(async (flags) => {
      const { logger } = createContext({ logLevel: flags.logLevel });
      const options = {
        repos: intFlag("repos", flags.repos, 1, 1_000_000) as number,
        seed: intFlag("seed", flags.seed, 0, 2 ** 31 - 1) as number,
        port: intFlag("port", flags.port, 0, 65_535) as number,
        host: flags.host as string,
        date: dayFlag("date", flags.date) ?? isoDay(new Date()),
        ...(flags.anchor ? { anchor: dayFlag("anchor", flags.anchor) } : {}),
        logger,
      };
      const { startSimServer } = await import("../sim/index.ts");
      const server = await startSimServer(options);
      process.stdout.write(`simulator listening on ${server.url}\n`);
      await waitForSignal();
      await server.close();
    });
}
