// `projintel demo` (what `npm start` runs): start the simulator, run the nightly pipeline against it,
// publish to the local release folder and serve the API on localhost — a working service in one command.
import type { Command } from "commander";
import { isoDay } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";
import { createContext, dayFlag, intFlag, openWarehouse } from "./context.ts";
import { DEMO_REST_BUDGET, SIM_STATS_RETRY_MS, withStateFlags } from "./options.ts";
import { waitForSignal } from "./signals.ts";

/** The demo's world is anchored here, so today's run extends yesterday's history instead of starting a new world. */
const DEMO_ANCHOR = "2026-11-01";

/** Nights of history a fresh demo replays (more than the 30 days of the longest trend window). */
const DEMO_NIGHTS = 35;
/**
 * GitHub REST requests per token on the demo's earlier nights: enough for the activity (contributors, weekly
 * commits) of the most starred repositories due that night, so contributor trends have a history, while the 34
 * earlier nights stay within the demo's minute.
 */
const DEMO_EARLIER_REST_BUDGET = 50;
const DAY_MS = 86_400_000;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

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
    .option("--no-serve", "stop after publishing instead of serving the API")
    .action(async (flags) => {
      const port = intFlag("port", flags.port, 0, 65_535);
      const base = createContext(flags, port === undefined ? {} : { port });
      const date = dayFlag("date", flags.date) ?? isoDay(new Date());
      const repos = intFlag("repos", flags.repos, 1, 1_000_000) as number;
      const seed = intFlag("seed", flags.seed, 0, 2 ** 31 - 1) as number;
      const restBudget = intFlag("rest-budget", flags.restBudget, 0, 1_000_000) as number;
      const nights = intFlag("nights", flags.nights, 1, 400) as number;
      const [{ startSimThread }, { replayNights }, { historyNights }, { SOURCES }, { startServer }] =
        await Promise.all([
          import("../sim/thread.ts"),
          import("../pipeline/replay.ts"),
          import("../pipeline/history.ts"),
          import("../pipeline/sources/index.ts"),
          import("../api-shim/server.ts"),
        ]);
      const anchor = dayFlag("anchor", flags.anchor) as string;
      // Replay the nights the state folder has not seen yet, up to `nights` of them: the whole history on a fresh
      // folder, only today on a second start the same day.
      const seen = await historyNights(statePaths(base.config).history);
      const first = firstNight(date, nights, seen.at(-1));
      const sim = await startSimThread({
        repos,
        seed,
        date: first,
        anchor,
        port: 0,
        logLevel: base.config.logLevel,
      });
      const { config, logger } = createContext(flags, {
        simUrl: sim.url,
        // the last night searches every term in full: the earlier ones did not search at all
        github: { restBudget, statsRetryMs: SIM_STATS_RETRY_MS, discovery: "full" },
        ...(port === undefined ? {} : { port }),
      });
      const db = await openWarehouse(config);
      try {
        const report = await replayNights({
          config,
          db,
          logger,
          nights: daysBetween(first, date) + 1,
          force: true,
          // earlier nights refresh the tracked repositories from GitHub only (stars, activity, stages); the last one
          // collects every source and searches for every repository created meanwhile
          earlierSources: SOURCES.filter((s) => s.name === "github" || s.name === "github_rest"),
          earlierConfig: createContext(flags, {
            simUrl: sim.url,
            github: {
              restBudget: Math.min(restBudget, DEMO_EARLIER_REST_BUDGET),
              statsRetryMs: SIM_STATS_RETRY_MS,
              discovery: "off",
            },
          }).config,
        });
        logger.info("demo: nights replayed", {
          first: report.first,
          last: report.last,
          ms: report.duration_ms,
        });
      } finally {
        db.close();
        await sim.close();
      }
      if (!flags.serve) return;
      const server = await startServer({ config, logger });
      const u = server.url;
      const examples = await tryLines(u, statePaths(config).root);
      process.stdout.write(
        [
          "",
          `Project Intelligence Service is serving ${date}'s release on ${u}`,
          `Docs: ${u}/docs   OpenAPI: ${u}/api/v1/openapi.json   Datasets: ${u}/api/v1/datasets`,
          "Try:",
          ...examples.map((e) => `  curl '${e}'`),
          `  curl -i '${u}/api/v1/quality?domain=nope'      # 422 invalid_domain`,
          "Press Ctrl-C to stop.",
          "",
        ].join("\n"),
      );
      await waitForSignal();
      await server.close();
    });
}

/** Example requests of a few endpoints, path parameters filled with items of the release (its manifest). */
async function tryLines(base: string, stateDir: string): Promise<string[]> {
  const [{ ROUTES }, { exampleRequest }, { readManifest, readPointer }, { createLocalStorage }] =
    await Promise.all([
      import("../publish/routes/index.ts"),
      import("../publish/routes-markdown.ts"),
      import("../publish/layout.ts"),
      import("../publish/storage.ts"),
    ]);
  const storage = createLocalStorage(stateDir);
  const pointer = await readPointer(storage);
  const manifest = pointer && (await readManifest(storage, pointer.release_id));
  const shown = [
    "quality",
    "quality-lookup",
    "trending",
    "projects",
    "project",
    "whats-new",
    "briefings",
    "status",
  ];
  const lines: string[] = [];
  for (const route of ROUTES.filter((r) => shown.includes(r.name))) {
    const examples = manifest?.examples[route.name] ?? {};
    let missing = false;
    const request = exampleRequest(route).replace(/<(\w+)>/g, (_, name: string) => {
      const example = examples[name];
      if (example === undefined) missing = true;
      return encodeURIComponent(String(example));
    });
    if (!missing) lines.push(`${base}${request}`);
  }
  return lines;
}
