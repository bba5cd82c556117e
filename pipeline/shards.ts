// Sharded collection on a remote (a bucket or a folder): a shard uploads its night's raw rows as Parquet under
// nights/<run_date>/shards/<i>-of-<n>/, with the ETag cache entries it wrote (etags.ndjson), and, last, done.json (its
// collect report); the scoring job merges every shard's rows into the warehouse, replacing that night's raw rows, and
// its cache entries into the state folder that its state push saves. Which shard owns what: pipeline/schedule/shards.ts.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Config, statePaths } from "../core/config.ts";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { writeFileAtomic } from "../core/files.ts";
import type { Logger } from "../core/log.ts";
import type { Storage } from "../core/storage.ts";
import { etagEntriesSince, fileEtagStore, importEtagEntries } from "./collect/etag-store.ts";
import type { CollectReport } from "./collect.ts";
import { allShards, repositoryKey, type Shard, shardLabel, shardOf } from "./schedule/shards.ts";
import { ensureRawTables, RAW_TABLES } from "./score.ts";
import { combineReports } from "./shards-report.ts";
import { linkedDir } from "./sources/github/seeds.ts";
import { TRACKED_FOR_DAYS } from "./sources/github/tracked.ts";

/** Written last by a shard: its presence says every file of the shard is on the remote. */
export const DONE_FILE = "done.json";
/** The ETag cache entries a shard wrote, NDJSON of {url, etag, body}. */
export const ETAGS_FILE = "etags.ndjson";
/** The shard's copy of the linked seeds its registries found (github/seeds.ts), under its prefix. */
const SEEDS_DIR = "seeds";

/** Where a night's shards live on the remote. */
export const nightShardsPrefix = (runDate: string) => `nights/${runDate}/shards/`;
export const shardPrefix = (runDate: string, shard: Shard) =>
  `${nightShardsPrefix(runDate)}${shardLabel(shard)}/`;

/**
 * A repository's facts merged from several shards' rows: which list column holds the repositories linking to an
 * entity that shards may fetch each for their own repositories (an arXiv paper linked from repositories of two
 * shards): the merged row holds the union, as one collect over every repository would.
 */
const MERGED_LISTS: Readonly<Record<string, string>> = { raw_arxiv_papers: "repo_full_names" };

/** What a shard's done.json holds. */
export interface ShardDone {
  run_date: string;
  shard: string;
  finished_at: string;
  /** Rows of the night per raw table, as uploaded. */
  table_rows: Record<string, number>;
  /** Linked-seed files (registry links to repositories GitHub did not find) uploaded beside the rows. */
  linked_seed_files: number;
  /** ETag cache entries the shard wrote (etags.ndjson), added to the scoring job's cache for its state push. */
  etag_entries?: number;
  collect: CollectReport;
}

/** The config of one shard: its own GitHub token (the i-th of several, in turn when there are fewer than shards). */
export function shardConfig(config: Config, shard: Shard): Config {
  const { tokens } = config.github;
  const token = tokens[(shard.index - 1) % Math.max(1, tokens.length)];
  return { ...config, github: { ...config.github, tokens: token ? [token] : [] } };
}

async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "projintel-shards-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function countRows(db: Db, table: string, runDate: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE run_date = ?::DATE`, [
    runDate,
  ]);
  return row?.n ?? 0;
}

/**
 * Uploads the shard's night: done.json is removed first (a shard collected again is incomplete until it finishes),
 * then one Parquet file per raw table and the night's linked seeds, then done.json.
 */
export async function uploadShard(options: {
  db: Db;
  storage: Storage;
  config: Config;
  runDate: string;
  shard: Shard;
  report: CollectReport;
  logger: Logger;
  /** When the shard's collect started: ETag cache entries written since go with the shard (etags.ndjson). */
  collectStartedMs?: number;
}): Promise<ShardDone> {
  const { db, storage, runDate, shard, logger } = options;
  const prefix = shardPrefix(runDate, shard);
  await storage.delete(`${prefix}${DONE_FILE}`);
  await ensureRawTables(db);
  const tableRows: Record<string, number> = {};
  await withTempDir(async (dir) => {
    for (const table of RAW_TABLES) {
      const file = path.join(dir, `${table}.parquet`);
      await db.run(
        `COPY (SELECT * FROM ${table} WHERE run_date = ${sqlLiteral(runDate)}::DATE ORDER BY ALL) TO ${sqlLiteral(file)} (FORMAT parquet, COMPRESSION zstd)`,
      );
      await storage.put(`${prefix}${table}.parquet`, await readFile(file));
      tableRows[table] = await countRows(db, table, runDate);
    }
  });
  const seedsDir = linkedDir(options);
  const seedFiles = (await readdir(seedsDir).catch(() => [] as string[])).filter((f) =>
    f.startsWith(`${runDate}.`),
  );
  for (const file of seedFiles)
    await storage.put(`${prefix}${SEEDS_DIR}/${file}`, await readFile(path.join(seedsDir, file)));
  const etags =
    options.collectStartedMs === undefined
      ? ""
      : await etagEntriesSince(statePaths(options.config).etags, options.collectStartedMs);
  await storage.put(`${prefix}${ETAGS_FILE}`, etags, { contentType: "application/x-ndjson" });
  const done: ShardDone = {
    run_date: runDate,
    shard: shardLabel(shard),
    finished_at: new Date().toISOString(),
    table_rows: tableRows,
    linked_seed_files: seedFiles.length,
    etag_entries: etags.split("\n").filter(Boolean).length,
    collect: options.report,
  };
  await storage.put(`${prefix}${DONE_FILE}`, `${JSON.stringify(done, null, 2)}\n`, {
    contentType: "application/json",
  });
  logger.info("collect: shard uploaded", { shard: done.shard, location: `${storage.location}/${prefix}` });
  return done;
}

/** The shards of a night that finished (their done.json) and those that did not. */
export async function nightShards(
  storage: Storage,
  runDate: string,
  count: number,
): Promise<{ done: ShardDone[]; missing: Shard[] }> {
  const done: ShardDone[] = [];
  const missing: Shard[] = [];
  for (const shard of allShards(count)) {
    const body = await storage.get(`${shardPrefix(runDate, shard)}${DONE_FILE}`);
    if (body) done.push(JSON.parse(body.toString("utf8")) as ShardDone);
    else missing.push(shard);
  }
  return { done, missing };
}

/** What the merge did, for the run manifest (`projintel report` prints it). */
export interface ShardsReport {
  count: number;
  /** The shards whose rows were merged. */
  merged: string[];
  /** The shards scored without (--carry-missing): their repositories keep the previous night's values. */
  carried: string[];
  carried_repositories: number;
  /** Rows of the night per raw table after the merge (repositories found by several shards counted once). */
  table_rows: Record<string, number>;
  duration_ms: number;
}

/** The primary key of a raw table, which rows of several shards are de-duplicated on. */
async function primaryKey(db: Db, table: string): Promise<string[]> {
  const [row] = await db.all<{ columns: string[] }>(
    "SELECT constraint_column_names AS columns FROM duckdb_constraints() WHERE table_name = ? AND constraint_type = 'PRIMARY KEY'",
    [table],
  );
  if (!row) throw new AppError(`${table} has no primary key to merge shards on.`);
  return row.columns;
}

/** Replaces the night's rows of `table` with the shards' files: one row per key, the lowest shard's. */
async function mergeTable(db: Db, table: string, files: readonly string[], runDate: string): Promise<void> {
  const list = `[${files.map(sqlLiteral).join(", ")}]`;
  const source = `read_parquet(${list}, filename = true, union_by_name = true)`;
  const day = `${sqlLiteral(runDate)}::DATE`;
  const key = (await primaryKey(db, table)).map((c) => `"${c}"`).join(", ");
  await db.run(`DELETE FROM ${table} WHERE run_date = ${day}`);
  await db.run(
    `INSERT INTO ${table} BY NAME SELECT * EXCLUDE (filename) FROM ${source} WHERE run_date = ${day} QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY filename) = 1`,
  );
  const merged = MERGED_LISTS[table];
  if (merged) {
    const union = `SELECT ${key}, list_sort(list_distinct(flatten(list("${merged}")))) AS merged FROM ${source} WHERE run_date = ${day} GROUP BY ALL`;
    const match = (await primaryKey(db, table)).map((c) => `${table}."${c}" = m."${c}"`).join(" AND ");
    await db.run(`UPDATE ${table} SET "${merged}" = m.merged FROM (${union}) m WHERE ${match}`);
  }
}

/** Tracked repositories (a row in the last TRACKED_FOR_DAYS) without a row tonight, owned by a missing shard. */
async function carriedRepositories(
  db: Db,
  runDate: string,
  missing: readonly Shard[],
): Promise<{ node_id: string; shard: string }[]> {
  // each repository's latest row before tonight: its owner then is what the shards were planned by
  const rows = await db.all<{ node_id: string; full_name: string }>(
    `SELECT node_id, full_name FROM raw_github_repos WHERE run_date < ?::DATE AND run_date >= ?::DATE - INTERVAL ${TRACKED_FOR_DAYS} DAY
     AND node_id NOT IN (SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE)
     QUALIFY row_number() OVER (PARTITION BY node_id ORDER BY run_date DESC) = 1 ORDER BY node_id`,
    [runDate, runDate, runDate],
  );
  const labels = new Map(missing.map((s) => [s.index, shardLabel(s)]));
  const count = missing[0]?.count ?? 1;
  return rows.flatMap(({ node_id, full_name }) => {
    const shard = labels.get(shardOf(repositoryKey(full_name), count));
    return shard ? [{ node_id, shard }] : [];
  });
}

async function missingError(
  storage: Storage,
  runDate: string,
  count: number,
  missing: readonly Shard[],
): Promise<AppError> {
  const names = missing.map(shardLabel).join(", ");
  // shards of another count (a different --shards) are named, so a mismatch reads as one
  const there = (await storage.list(nightShardsPrefix(runDate), { children: true }))
    .map((key) => key.slice(nightShardsPrefix(runDate).length).replace(/\/$/, ""))
    .filter((label) => !label.endsWith(`-of-${count}`));
  const other = there.length > 0 ? `; the remote holds ${there.join(", ")}` : "";
  return new AppError(
    `Refusing to score ${runDate}: ${missing.length} of ${count} shards did not finish (${names}: no ${DONE_FILE} under ${storage.location}/${nightShardsPrefix(runDate)}${other}).`,
    {
      hint: `Collect them again (projintel collect --shard ${missing[0]?.index}/${count} --date ${runDate}), or score with --carry-missing to keep their repositories' previous values.`,
      stage: "score",
    },
  );
}

/**
 * Merges a night's shards into the warehouse, replacing the night's raw rows in one transaction. An incomplete set
 * is refused (the error names the missing shards) unless `carryMissing`: then the missing shards' repositories get
 * no row tonight, so scoring carries their previous values forward, and shard_carried lists them for the flag.
 */
export async function mergeShards(options: {
  db: Db;
  storage: Storage;
  runDate: string;
  count: number;
  carryMissing: boolean;
  /** The state folder: the shards' linked seeds are copied to it, for the next night's discovery. */
  config: Config;
  logger: Logger;
}): Promise<{ report: ShardsReport; collect: CollectReport }> {
  const { db, storage, runDate, count, logger } = options;
  const started = performance.now();
  const { done, missing } = await nightShards(storage, runDate, count);
  if (done.length === 0 || (missing.length > 0 && !options.carryMissing))
    throw await missingError(storage, runDate, count, missing);
  await ensureRawTables(db);
  const present = allShards(count).filter((s) => !missing.some((m) => m.index === s.index));
  const tableRows: Record<string, number> = {};
  let carried: { node_id: string; shard: string }[] = [];
  await withTempDir(async (dir) => {
    const files = new Map<string, string[]>(RAW_TABLES.map((t) => [t, []]));
    for (const shard of present) {
      for (const table of RAW_TABLES) {
        const key = `${shardPrefix(runDate, shard)}${table}.parquet`;
        const body = await storage.get(key);
        if (!body)
          throw new AppError(`Shard ${shardLabel(shard)} has ${DONE_FILE} but no ${key}.`, {
            hint: `Collect shard ${shard.index}/${count} again; its upload was changed after it finished.`,
          });
        // zero-padded, so the lowest shard sorts first for any count
        const file = path.join(dir, `${table}.${String(shard.index).padStart(2, "0")}.parquet`);
        await writeFile(file, body);
        files.get(table)?.push(file);
      }
    }
    await db.run("BEGIN TRANSACTION");
    try {
      for (const table of RAW_TABLES) await mergeTable(db, table, files.get(table) ?? [], runDate);
      await db.run("DELETE FROM shard_carried WHERE run_date = ?::DATE", [runDate]);
      carried = await carriedRepositories(db, runDate, missing);
      if (carried.length > 0) {
        const list = path.join(dir, "carried.ndjson");
        await writeFile(list, carried.map((c) => `${JSON.stringify(c)}\n`).join(""));
        await db.run(
          `INSERT INTO shard_carried SELECT ${sqlLiteral(runDate)}::DATE, node_id, shard FROM read_json(${sqlLiteral(list)}, format = 'newline_delimited', columns = {node_id: 'VARCHAR', shard: 'VARCHAR'})`,
        );
      }
      await db.run("COMMIT");
    } catch (error) {
      await db.run("ROLLBACK");
      throw error;
    }
  });
  for (const table of RAW_TABLES) tableRows[table] = await countRows(db, table, runDate);
  await copyLinkedSeeds(storage, runDate, present, options.config);
  await copyEtags(storage, runDate, present, options.config);
  const report: ShardsReport = {
    count,
    merged: present.map(shardLabel),
    carried: missing.map(shardLabel),
    carried_repositories: carried.length,
    table_rows: tableRows,
    duration_ms: Math.round(performance.now() - started),
  };
  if (missing.length > 0)
    logger.warn("score: shards missing, their repositories carried", {
      shards: report.carried,
      repositories: carried.length,
    });
  logger.info("score: shards merged", { ...report });
  return { report, collect: combineReports(runDate, done, tableRows) };
}

/** The shards' new ETag cache entries, into the state folder's cache (the next state push saves them). */
async function copyEtags(
  storage: Storage,
  runDate: string,
  shards: readonly Shard[],
  config: Config,
): Promise<void> {
  const store = fileEtagStore(statePaths(config).etags);
  for (const shard of shards) {
    const body = await storage.get(`${shardPrefix(runDate, shard)}${ETAGS_FILE}`);
    if (body) await importEtagEntries(store, body.toString("utf8"));
  }
}

/** The shards' linked seeds, into the state folder's seeds/linked/ (GitHub resolves them on the next nights). */
async function copyLinkedSeeds(
  storage: Storage,
  runDate: string,
  shards: readonly Shard[],
  config: Config,
): Promise<void> {
  const target = linkedDir({ config });
  for (const shard of shards) {
    const prefix = `${shardPrefix(runDate, shard)}${SEEDS_DIR}/`;
    for (const key of await storage.list(prefix)) {
      const body = await storage.get(key);
      // <run_date>.<source>.<batch>.txt: batch numbers repeat from shard to shard, so the shard goes in the name
      const name = key.slice(prefix.length);
      const file = `${name.slice(0, runDate.length)}.${shardLabel(shard)}${name.slice(runDate.length)}`;
      if (body) await writeFileAtomic(path.join(target, file), body, { sync: false });
    }
  }
}
