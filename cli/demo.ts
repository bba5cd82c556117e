// `projintel demo` (what `npm start` runs): start the simulator, run the nightly pipeline against it,
// publish to the local release folder and serve the API on localhost — a working service in one command.
// The flags and the nights to replay are here; the order of the work is in demo-run.ts.
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";
import { ConfigError } from "../core/errors.ts";
import { createContext, dayFlag, intFlag } from "./context.ts";
import { runDemo } from "./demo-run.ts";
import { DEMO_REST_BUDGET, withStateFlags } from "./options.ts";

/** The demo's world is anchored here, so today's run extends yesterday's history instead of starting a new world. */
const DEMO_ANCHOR = "2026-11-01";

/** Nights of history a fresh demo replays (more than the 30 days of the longest trend window). */
const DEMO_NIGHTS = 35;
const DAY_MS = 86_400_000;
/** The flags of the simulated world, refused with --list (whose nights and projects are the list's). */
const SIMULATED_ONLY = ["repos", "seed", "date", "anchor", "restBudget", "nights"] as const;

/** The first night to replay so that the last is `date`: the night after the last one seen, at most `nights` back. */
export function firstNight(date: string, nights: number, lastSeen: string | undefined): string {
  const earliest = isoDay(new Date(Date.parse(date) - (nights - 1) * DAY_MS));
  if (!lastSeen || lastSeen < earliest) return earliest;
  return lastSeen >= date ? date : isoDay(new Date(Date.parse(lastSeen) + DAY_MS));
}

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
    .option("--nights <n>", "nights of history the demo replays on a fresh state folder", String(DEMO_NIGHTS))
    .option(
      "--list <file>",
      "serve real projects instead of the simulated world: replay a list's dated history (CSV, gzipped CSV or JSON lines with snapshot_date, or a folder of best-of exports; see `rate --history`) as nights into <state>/list/",
    )
    .option(
      "--describe <export>",
      "with --list: give the history's projects the descriptions it lacks from a list export of the same projects (best-of's <date>_projects.csv, with github_id and description), so domains are classified from descriptions, not names alone",
    )
    .option("--no-serve", "replay and publish the history, then stop, instead of serving the API")
    .option(
      "--verbose",
      "also write the structured log to stderr (it always goes to <state>/logs/<date>.jsonl)",
    )
    .action(async (flags, command: Command) => {
      const port = intFlag("port", flags.port, 0, 65_535);
      if (flags.describe !== undefined && flags.list === undefined)
        throw new ConfigError("--describe gives descriptions to a list's history: use it with --list FILE.");
      if (flags.list !== undefined) {
        const simulated = SIMULATED_ONLY.find((name) => command.getOptionValueSource(name) === "cli");
        if (simulated) {
          const flag = `--${simulated.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
          throw new ConfigError(
            `${flag} sets the simulated world, which --list does not use: the list's dates are the nights.`,
          );
        }
        const { runListDemo } = await import("./demo-list.ts");
        await runListDemo(flags, {
          file: flags.list,
          describe: flags.describe,
          port,
          serve: Boolean(flags.serve),
          verbose: Boolean(flags.verbose),
        });
        return;
      }
      const base = createContext(flags);
      const date = dayFlag("date", flags.date) ?? isoDay(new Date());
      const nights = intFlag("nights", flags.nights, 1, 400) as number;
      const { historyNights } = await import("../pipeline/history.ts");
      // Replay the nights the state folder has not seen yet, up to `nights` of them: the whole history on a fresh
      // folder, nothing on a second start the same day.
      const seen = await historyNights(statePaths(base.config).history);
      await runDemo(flags, {
        date,
        first: firstNight(date, nights, seen.at(-1)),
        repos: intFlag("repos", flags.repos, 1, 1_000_000) as number,
        seed: intFlag("seed", flags.seed, 0, 2 ** 31 - 1) as number,
        anchor: dayFlag("anchor", flags.anchor) as string,
        restBudget: intFlag("rest-budget", flags.restBudget, 0, 1_000_000) as number,
        port,
        serve: Boolean(flags.serve),
        verbose: Boolean(flags.verbose),
      });
    });
}
