// What `projintel demo` does, in the order a new user waits for it: serve something real first, then fill history.
// A fresh state folder gets tonight's release alone (demo-first.ts) and the API answers it; the nights of history
// are then replayed in the background into the real warehouse and their release replaces tonight's atomically.
// A state folder that has a release is served at once and catches up behind it. One line per stage on stdout; the
// structured log goes to <state>/logs/<date>.jsonl (and to stderr with --verbose).
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { isoDay } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";
import { describeError } from "../core/errors.ts";
import { fileSink, type LogSink, stderrSink, teeSink } from "../core/log.ts";
import { formatCount, formatSeconds, type StageLine, stageLines } from "../core/progress.ts";
import { createLocalStorage } from "../core/storage.ts";
import { readPointer } from "../publish/layout.ts";
import { type CommonFlags, createContext } from "./context.ts";
import { exampleUrls } from "./demo-examples.ts";
import { firstNightRelease } from "./demo-first.ts";
import { historyStarts, replayHistory } from "./demo-history.ts";
import { demoGithub } from "./options.ts";
import { waitForSignal } from "./signals.ts";

/** The log folder under the state folder: one JSON-lines file per day. */
export const LOGS_DIR = "logs";

export interface DemoPlan {
  /** The last night, the release served in the end. */
  date: string;
  /** The first night still to replay (the night after the last one the history holds, or `nights` back). */
  first: string;
  repos: number;
  seed: number;
  anchor: string;
  restBudget: number;
  port: number | undefined;
  serve: boolean;
  verbose: boolean;
}

export async function runDemo(flags: CommonFlags, asked: DemoPlan): Promise<void> {
  const line = stageLines(process.stdout);
  const settings = createContext(flags, asked.port === undefined ? {} : { port: asked.port }).config;
  // The port is settled before anything is published: the release's absolute links (OpenAPI servers, badge Markdown,
  // dataset URLs, the feed) are made from it (core/config.ts localBaseUrl), so port 0 becomes a free port here.
  const plan = { ...asked, port: settings.port === 0 ? await freePort(settings.host) : settings.port };
  const portOverride = { port: plan.port };
  const root = statePaths(settings).root;
  const logFile = path.join(root, LOGS_DIR, `${isoDay(new Date())}.jsonl`);
  const sink: LogSink = plan.verbose ? teeSink(fileSink(logFile), stderrSink) : fileSink(logFile);
  const context = (overrides: Record<string, unknown>) => createContext(flags, overrides, sink);
  const { config, logger } = context(portOverride);
  const { historyNights } = await import("../pipeline/history.ts");
  const seen = await historyNights(statePaths(config).history);
  const pointer = await readPointer(createLocalStorage(root));
  const upToDate = pointer !== undefined && seen.at(-1) === plan.date;
  line(
    "demo",
    `${formatCount(plan.repos)} simulated repositories (seed ${plan.seed}) up to ${plan.date}; state ${shown(root)}, log ${shown(logFile)}`,
  );
  const history = { flags, plan, sink, line };
  if (!plan.serve) {
    if (upToDate) nothingToReplay(line, seen.length, plan.date);
    else {
      historyStarts(line, plan);
      await replayHistory(history);
    }
    return;
  }
  if (!pointer) {
    const { startSimThread } = await import("../sim/thread.ts");
    const started = performance.now();
    const sim = await startSimThread({
      repos: plan.repos,
      seed: plan.seed,
      date: plan.date,
      anchor: plan.anchor,
      port: 0,
      logLevel: plan.verbose ? config.logLevel : "warn",
    });
    line(
      "simulator",
      `${formatCount(plan.repos)} repositories, clock at ${plan.date}`,
      performance.now() - started,
    );
    try {
      const tonight = context({ ...portOverride, simUrl: sim.url, github: demoGithub(plan.restBudget) });
      const { manifest, release_id } = await firstNightRelease({ ...tonight, date: plan.date });
      printNight(line, manifest, release_id);
    } finally {
      await sim.close();
    }
  }
  const [{ startServer }, { openReleaseReader }] = await Promise.all([
    import("../api-shim/server.ts"),
    import("../api-shim/release-reader.ts"),
  ]);
  // the demo's own reader, so the history's release is served the moment it is published (no wait for the timer)
  const release = await openReleaseReader({ storage: createLocalStorage(root), logger });
  const server = await startServer({ config, logger, release });
  line("serve", `${server.url} answers, ${formatSeconds(performance.now())} after start`);
  const stop = new AbortController();
  if (upToDate) nothingToReplay(line, seen.length, plan.date);
  else historyStarts(line, plan);
  const background = upToDate
    ? Promise.resolve()
    : replayHistory({ ...history, signal: stop.signal, published: () => release.reload() }).catch(
        (error: unknown) =>
          line("history", `failed, still serving the previous release: ${describeError(error)}`),
      );
  process.stdout.write("Try:\n");
  for (const url of await exampleUrls(server.url, root)) process.stdout.write(`  curl '${url}'\n`);
  process.stdout.write(`Docs: ${server.url}/docs   Ctrl-C stops.\n`);
  await waitForSignal();
  stop.abort();
  await background;
  await server.close();
}

/** A port free on `host` right now (the system's choice for port 0), for a demo asked to serve on any port. */
export async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, host, resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function printNight(
  line: StageLine,
  manifest: Awaited<ReturnType<typeof firstNightRelease>>["manifest"],
  releaseId: string,
): void {
  const collect = manifest.collect;
  if (collect) {
    const requests = Object.values(collect.requests).reduce((a, b) => a + b, 0);
    const ok = collect.sources.filter((s) => s.status === "ok").length;
    line(
      "collect",
      `tonight: ${formatCount(collect.repos_total)} repositories, ${formatCount(requests)} requests, ${ok} of ${collect.sources.length} sources ok`,
      collect.duration_ms,
    );
  }
  if (manifest.score)
    line("score", `${formatCount(manifest.score.repos)} projects`, manifest.score.duration_ms);
  const files = manifest.publish?.files ?? 0;
  line("publish", `release ${releaseId}, ${formatCount(files)} files`, manifest.durations_ms?.publish);
}

function nothingToReplay(line: StageLine, nights: number, date: string): void {
  line("history", `${nights} nights up to ${date}: nothing to replay`);
}

/** A path as printed: relative to the working folder when inside it, so output and docs carry no home folder. */
export function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") ? relative : file;
}
