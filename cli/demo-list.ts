// `projintel demo --list FILE`: real projects served offline. A list's dated history (pipeline/lists/replay.ts) is
// replayed night by night through the nightly's SQL into a warehouse of its own (<state>/list/), made into the
// warehouse a nightly leaves (pipeline/lists/list-warehouse.ts), published as a release and served like `demo`.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { isoDay } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";
import { fileSink, type LogSink, stderrSink, teeSink } from "../core/log.ts";
import { formatCount, formatSeconds, stageLines } from "../core/progress.ts";
import { createLocalStorage } from "../core/storage.ts";
import { type CommonFlags, createContext, openWarehouse } from "./context.ts";
import { exampleUrls } from "./demo-examples.ts";
import { freePort, LOGS_DIR, shown } from "./demo-run.ts";
import { waitForSignal } from "./signals.ts";

/**
 * The folder under the state folder a list's demo lives in (var/list by default): a warehouse rebuilt from the list
 * on every start, apart from the simulated demo's and any nightly's, which it never touches.
 */
export const LIST_STATE_DIR = "list";

/**
 * What is rebuilt from the list on every start: the warehouse, its history and the months packed from it. Releases,
 * the public database, keys and quotas stay, as a publish replaces them.
 */
const REBUILT = ["warehouse.duckdb", "warehouse.duckdb.wal", "history", "packed-history"] as const;

export interface ListDemoPlan {
  file: string;
  port: number | undefined;
  serve: boolean;
  verbose: boolean;
}

export async function runListDemo(flags: CommonFlags, asked: ListDemoPlan): Promise<void> {
  const started = performance.now();
  const line = stageLines(process.stdout);
  const outer = createContext(flags, asked.port === undefined ? {} : { port: asked.port }).config;
  const stateDir = path.join(outer.stateDir, LIST_STATE_DIR);
  // the release's absolute links (OpenAPI servers, badge Markdown) are made from the port: settled before publishing
  const port = outer.port === 0 ? await freePort(outer.host) : outer.port;
  const root = statePaths({ stateDir }).root;
  const logFile = path.join(root, LOGS_DIR, `${isoDay(new Date())}.jsonl`);
  const sink: LogSink = asked.verbose ? teeSink(fileSink(logFile), stderrSink) : fileSink(logFile);
  const { config, logger } = createContext(flags, { stateDir, port }, sink);
  line("demo", `the list ${shown(asked.file)}; state ${shown(root)}, log ${shown(logFile)}`);

  await mkdir(root, { recursive: true });
  for (const name of REBUILT) await rm(path.join(root, name), { recursive: true, force: true });
  const [{ replayList }, { buildListWarehouse }] = await Promise.all([
    import("../pipeline/lists/replay.ts"),
    import("../pipeline/lists/list-warehouse.ts"),
  ]);
  const paths = statePaths(config);
  const replay = await replayList(asked.file, paths.warehouse);
  const { history } = replay;
  let built: Awaited<ReturnType<typeof buildListWarehouse>>;
  try {
    for (const p of history.problems)
      line("list", `set aside ${p.file}${p.line === null ? "" : `:${p.line}`}: ${p.reason}`);
    line(
      "replay",
      `${formatCount(history.projects)} projects over ${history.dates.length} nights, ${history.dates[0]} to ${history.dates.at(-1)}`,
      replay.ms,
    );
    built = await buildListWarehouse({
      db: replay.db,
      dates: history.dates,
      historyRoot: paths.history,
      logger,
    });
  } finally {
    replay.db.close();
  }
  line(
    "warehouse",
    `${formatCount(built.projects)} projects listed on ${built.last}, ${built.nights} nights of history`,
    built.duration_ms,
  );

  const [{ publishPublicDb }, { publishRelease }] = await Promise.all([
    import("../pipeline/public-db.ts"),
    import("../publish/release.ts"),
  ]);
  const db = await openWarehouse(config);
  let releaseId: string;
  try {
    const publishStarted = performance.now();
    await publishPublicDb({ db, stateRoot: root, runDate: built.last });
    // a list of another size than the last one published here is not a broken collection: --force past the gate
    const report = await publishRelease({ config, db, logger, force: true });
    releaseId = report.releaseId;
    line("publish", `release ${releaseId}`, performance.now() - publishStarted);
  } finally {
    db.close();
  }
  if (!asked.serve) {
    line(
      "demo",
      `done; serve it with: projintel serve --state-dir ${shown(root)}`,
      performance.now() - started,
    );
    return;
  }

  const [{ startServer }, { openReleaseReader }] = await Promise.all([
    import("../api-shim/server.ts"),
    import("../api-shim/release-reader.ts"),
  ]);
  const release = await openReleaseReader({ storage: createLocalStorage(root), logger });
  const server = await startServer({ config, logger, release });
  line("serve", `${server.url} answers, ${formatSeconds(performance.now() - started)} after start`);
  process.stdout.write("Try:\n");
  for (const url of await listExampleUrls(server.url, root))
    process.stdout.write(`  ${url.startsWith("http") ? `curl '${url}'` : url}\n`);
  process.stdout.write(`Docs: ${server.url}/docs   Ctrl-C stops.\n`);
  await waitForSignal();
  await server.close();
}

/** demo's example requests, then the pages of the release's most starred project and of its domain. */
async function listExampleUrls(base: string, root: string): Promise<string[]> {
  const urls = await exampleUrls(base, root);
  const [{ openDb }, { projectPagePath }] = await Promise.all([
    import("../core/db.ts"),
    import("../publish/badges.ts"),
  ]);
  const db = await openDb(statePaths({ stateDir: root }).warehouse, { readOnly: true });
  try {
    const [top] = await db.all<{ full_name: string; domain: string }>(
      "SELECT full_name, domain FROM projects ORDER BY stars DESC, full_name LIMIT 1",
    );
    if (top)
      urls.push(`Open ${base}${projectPagePath(top.full_name)} and ${base}/d/${top.domain} in a browser`);
  } finally {
    db.close();
  }
  return urls;
}
