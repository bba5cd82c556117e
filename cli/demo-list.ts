// `projintel demo --list FILE`: real projects served offline. A list's dated history (pipeline/lists/replay.ts) is
// replayed night by night through the nightly's SQL into a warehouse of its own (<state>/list/), made into the
// warehouse a nightly leaves (pipeline/lists/list-warehouse.ts), published as a release and served like `demo`.
import { mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { isoDay } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import { writeFileAtomic } from "../core/files.ts";
import { fileSink, type Logger, type LogSink, stderrSink, teeSink } from "../core/log.ts";
import { formatCount, formatSeconds, type StageLine, stageLines } from "../core/progress.ts";
import { createLocalStorage } from "../core/storage.ts";
import type { ListWarehouseReport } from "../pipeline/lists/list-warehouse.ts";
import { readPointer } from "../publish/layout.ts";
import { type CommonFlags, createContext, openWarehouse } from "./context.ts";
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
/** Where the new warehouse and history are built, moved into place once the list is replayed whole. */
const BUILDING = {
  warehouse: "warehouse.building.duckdb",
  history: "history.building",
  // a folder for the history with the export's descriptions (--describe), replayed instead of the file
  described: "described.building",
} as const;

/**
 * The marker of the release built from which file (its path, size and modification time), --describe export and port
 * (its links name it): a start with the same ones serves that release at once instead of replaying the list again.
 */
const BUILT_FILE = "list.json";

export interface ListDemoPlan {
  file: string;
  /** A list export whose descriptions the history's projects take (--describe), or undefined. */
  describe?: string | undefined;
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
  const source = await sourceOf(asked.file, asked.describe, port);
  const built = await readBuilt(root);
  const live = await readPointer(createLocalStorage(root));
  if (built && live && built.release_id === live.release_id && sameSource(built.source, source)) {
    line(
      "list",
      `release ${live.release_id} was built from this file already: no replay (delete ${shown(root)} to build it again)`,
    );
  } else {
    const releaseId = await buildAndPublish({
      file: asked.file,
      describe: asked.describe,
      root,
      config,
      logger,
      line,
    });
    await writeFileAtomic(
      path.join(root, BUILT_FILE),
      `${JSON.stringify({ source, release_id: releaseId })}\n`,
    );
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

/** The list replayed into `into.warehouse`, made into a nightly's warehouse with its history in `into.history`. */
async function replayInto(
  file: string,
  into: { warehouse: string; history: string; described: string },
  options: { describe: string | undefined; logger: Logger; line: StageLine },
): Promise<ListWarehouseReport> {
  const { describe, logger, line } = options;
  const [{ replayList }, { buildListWarehouse }, { describeHistory }] = await Promise.all([
    import("../pipeline/lists/replay.ts"),
    import("../pipeline/lists/list-warehouse.ts"),
    import("../pipeline/lists/describe.ts"),
  ]);
  let replayed = file;
  if (describe !== undefined) {
    const started = performance.now();
    const described = await describeHistory({ history: file, exportFile: describe, outDir: into.described });
    replayed = described.file;
    line(
      "describe",
      `${formatCount(described.described)} of ${formatCount(described.rows)} rows described by ${shown(describe)}`,
      performance.now() - started,
    );
  }
  const replay = await replayList(replayed, into.warehouse);
  const { history } = replay;
  try {
    // the copy's rows are the file's, line for line
    for (const p of history.problems)
      line(
        "list",
        `set aside ${p.file === replayed ? file : p.file}${p.line === null ? "" : `:${p.line}`}: ${p.reason}`,
      );
    line(
      "replay",
      `${formatCount(history.projects)} projects over ${history.dates.length} nights, ${history.dates[0]} to ${history.dates.at(-1)}`,
      replay.ms,
    );
    // the projects as the replay knows them (a renamed one is one), described by their last row
    const [texts] = await replay.db.all<{ described: number; projects: number }>(
      `SELECT count(*) FILTER (WHERE nullif(trim(description), '') IS NOT NULL)::INTEGER AS described,
         count(*)::INTEGER AS projects
       FROM (SELECT arg_max(description, snapshot_date) AS description FROM list_history GROUP BY project)`,
    );
    line(
      "list",
      texts?.described
        ? `${formatCount(texts.described)} of ${formatCount(texts.projects)} projects have a description; the others' domains are classified from names and packages alone`
        : "the history has no descriptions: domains are classified from names and packages alone (--describe <export> gives them a list export's)",
    );
    return await buildListWarehouse({
      db: replay.db,
      dates: history.dates,
      historyRoot: into.history,
      logger,
    });
  } finally {
    replay.db.close();
  }
}

/** Replays the list into a rebuilt warehouse under `root`, publishes it and returns the release's id. */
async function buildAndPublish(options: {
  file: string;
  describe: string | undefined;
  root: string;
  config: Config;
  logger: Logger;
  line: StageLine;
}): Promise<string> {
  const { file, describe, root, config, logger, line } = options;
  // built beside the previous warehouse and history, which a file that cannot be replayed leaves as they were
  const building = {
    warehouse: path.join(root, BUILDING.warehouse),
    history: path.join(root, BUILDING.history),
    described: path.join(root, BUILDING.described),
  };
  for (const leftover of Object.values(building)) await rm(leftover, { recursive: true, force: true });
  const paths = statePaths(config);
  let built: ListWarehouseReport;
  try {
    built = await replayInto(file, building, { describe, logger, line });
  } catch (error) {
    for (const leftover of Object.values(building)) await rm(leftover, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(building.described, { recursive: true, force: true });
  }
  for (const name of REBUILT) await rm(path.join(root, name), { recursive: true, force: true });
  await rename(building.warehouse, paths.warehouse);
  await rename(building.history, paths.history);
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
  try {
    const started = performance.now();
    await publishPublicDb({ db, stateRoot: root, runDate: built.last });
    // a list of another size than the last one published here is not a broken collection: --force past the gate
    const report = await publishRelease({ config, db, logger, force: true });
    line("publish", `release ${report.releaseId}`, performance.now() - started);
    return report.releaseId;
  } finally {
    db.close();
  }
}

/**
 * What a release was built from: the list file (its path, size and time), its --describe export and the port its
 * links name.
 */
interface Source {
  file: string;
  bytes: number;
  modified_ms: number;
  port: number;
  /** The export the descriptions came from (--describe), "path size time"; null without one. */
  describe: string | null;
}

async function sourceOf(
  file: string,
  describe: string | undefined,
  port: number,
): Promise<Source | undefined> {
  const absolute = path.resolve(file);
  // a file that cannot be read is the replay's (or the description's) to report, with its hint
  const info = await stat(absolute).catch(() => undefined);
  let described: string | null = null;
  if (describe !== undefined) {
    const exported = await stat(path.resolve(describe)).catch(() => undefined);
    if (!exported) return undefined;
    described = `${path.resolve(describe)} ${exported.size} ${exported.mtimeMs}`;
  }
  return info && { file: absolute, bytes: info.size, modified_ms: info.mtimeMs, port, describe: described };
}

const sameSource = (a: Source, b: Source | undefined) =>
  b !== undefined &&
  (Object.keys(a) as (keyof Source)[]).every(
    (key) => a[key] === (b[key] ?? (key === "describe" ? null : undefined)),
  );

/** The marker of the last release built here (which source, which release), or undefined on a first start. */
async function readBuilt(root: string): Promise<{ source: Source; release_id: string } | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(root, BUILT_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as { source: Source; release_id: string };
  } catch {
    // a marker edited by hand into something else than JSON: the list is replayed again, which rewrites it
    return undefined;
  }
}

/**
 * Requests that answer with the list's own projects (demo's examples are the simulated world's, whose domains a list
 * may not have): its most starred project's domain, record and pages, the trends and stage changes, the status.
 */
async function listExampleUrls(base: string, root: string): Promise<string[]> {
  const [{ openDb }, { projectPagePath }] = await Promise.all([
    import("../core/db.ts"),
    import("../publish/badges.ts"),
  ]);
  const db = await openDb(statePaths({ stateDir: root }).warehouse, { readOnly: true });
  let top: { full_name: string; slug: string; domain: string } | undefined;
  try {
    [top] = await db.all<{ full_name: string; slug: string; domain: string }>(
      "SELECT full_name, slug, domain FROM projects ORDER BY stars DESC, full_name LIMIT 1",
    );
  } finally {
    db.close();
  }
  if (!top) return [];
  return [
    `${base}/api/v1/quality?domain=${top.domain}&limit=5`,
    `${base}/api/v1/projects/${encodeURIComponent(top.slug)}`,
    `${base}/api/v1/trending?window=30d&limit=5`,
    `${base}/api/v1/transitions?limit=5`,
    `${base}/api/v1/status`,
    `Open ${base}${projectPagePath(top.full_name)} and ${base}/d/${top.domain} in a browser`,
  ];
}
