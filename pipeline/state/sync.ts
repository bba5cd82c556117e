// Durable state on a remote (a bucket or a folder), under `state/`: what a night on an empty machine needs to continue
// the last one (pipeline/state/files.ts says which files). pullState restores it: the latest warehouse snapshot and
// the history's nights after it (state-snapshot.ts), from which it builds the warehouse — so a restore does not grow
// with the nights; pushState uploads what changed, and the remote keeps every night of the history. `state/index.json` names every object with its size and sha256 and is
// written last, after the uploads are confirmed, so a reader always sees one complete push — never half of one. The
// ETag cache travels packed, one object per sub-folder (state-packs.ts).
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { z } from "zod";
import { statePaths } from "../../core/config.ts";
import { AppError } from "../../core/errors.ts";
import { commitTempFile, readTextIfExists, removeTempFiles, writeJsonAtomic } from "../../core/files.ts";
import { PACKED_HISTORY_TABLES, writeHistoryLeft } from "../../core/history-left.ts";
import type { Logger } from "../../core/log.ts";
import { startProgress } from "../../core/progress.ts";
import { compareKeys, type Storage, sha256File, tempPath } from "../../core/storage.ts";
import { historyNights, rebuildWarehouse } from "../history.ts";
import { isRawTable } from "../score.ts";
import {
  isStateFile,
  type LocalFile,
  listStateFiles,
  localPath,
  openHashCache,
  SNAPSHOT_FILE,
} from "./files.ts";
import { isPackedFile, membersDigest, PACK_PATTERN, packOf, unpack, writePack } from "./packs.ts";
import {
  localSnapshots,
  type RestoreReport,
  removeSnapshotLeftovers,
  restoreWarehouse,
  SNAPSHOT_DIR,
} from "./snapshot.ts";
import { isRawOnlyWarehouse } from "./warehouse-scope.ts";

/** Where the state lives on the remote. */
export const STATE_PREFIX = "state/";
/** The index of the last complete push: the only object a reader trusts to say what the state is. */
export const STATE_INDEX_KEY = `${STATE_PREFIX}index.json`;
export const stateKey = (rel: string) => `${STATE_PREFIX}${rel}`;

const indexSchema = z.object({
  version: z.literal(1),
  pushed_at: z.string(),
  objects: z.record(
    z.string(),
    z.object({
      bytes: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** A pack's digest of its members (state-packs.ts): unchanged members, no new upload. */
      members: z.string().optional(),
    }),
  ),
});
type StateIndex = z.infer<typeof indexSchema>;
type IndexEntry = StateIndex["objects"][string];

export interface StateSyncOptions {
  storage: Storage;
  /** The state folder (statePaths(config).root). */
  stateRoot: string;
  logger: Logger;
  /** Transfers in flight at once (config.s3.concurrency). */
  concurrency: number;
}

/** Run reports a pull fetches from before the snapshot's night (older ones stay on the remote). */
export const RUN_REPORTS_BEFORE_SNAPSHOT_DAYS = 14;

export interface PullReport {
  location: string;
  /** Objects the remote index names. */
  objects: number;
  downloaded: number;
  /** Objects already in the state folder, left as they are. */
  present: number;
  bytes: number;
  /**
   * The warehouse: restored from the snapshot and the nights after it, rebuilt from the whole pulled history (a
   * remote with no snapshot yet), kept (it existed), or none (no history to build it from).
   */
  warehouse: "restored" | "rebuilt" | "kept" | "none";
  /** Set when only the raw tables were pulled and restored (a collect job: --raw-only). */
  raw_only?: true;
  /** The remote's warehouse snapshot (its night), if it has one. */
  snapshot: string | null;
  /** History nights in the state folder after the pull. */
  nights: number;
  /** History objects on the remote the pull left there (nights at or before the snapshot's). */
  left_on_remote: number;
  /** Building the warehouse from the snapshot, when it was. */
  restore_ms?: number;
  duration_ms: number;
}

export interface PushReport {
  location: string;
  objects: number;
  uploaded: number;
  unchanged: number;
  bytes: number;
  duration_ms: number;
}

/** Restores the remote's state into the state folder: downloads what is missing, then rebuilds a missing warehouse. */
export async function pullState(
  options: StateSyncOptions & {
    /**
     * Only the history's nights after the snapshot (a flat restore: what collecting, scoring and publishing need),
     * leaving the older ones on the remote, those of the current month too; a publish takes those from the previous
     * release (publish/dataset-carry.ts: the closed months as they are, the current month extended with the local
     * nights).
     */
    recent?: boolean;
    /**
     * Only what collecting reads: the raw tables' files (the snapshot's and the history's), the ETag cache, the
     * seeds and run reports, not the snapshots, transitions, lifecycle candidates and contributor counts scoring
     * reads. The warehouse restored from them is marked raw-only (warehouse-scope.ts). Needs a snapshot on the
     * remote: without one, the pull is whole.
     */
    rawOnly?: boolean;
  },
): Promise<PullReport> {
  const { storage, stateRoot, logger } = options;
  const started = performance.now();
  const paths = statePaths({ stateDir: stateRoot });
  await mkdir(stateRoot, { recursive: true });
  // what a pull killed midway left: temp files beside the files it was downloading
  for (const dir of ["history", "etags", "seeds", SNAPSHOT_DIR])
    await removeTempFiles(path.join(stateRoot, dir));
  await removeSnapshotLeftovers(stateRoot);
  const index = await readIndex(storage);
  if (!index)
    logger.warn("state: the remote holds no state yet; starting from this folder's", {
      location: storage.location,
    });
  const snapshot = latestSnapshot(index);
  const rawOnly = options.rawOnly === true && snapshot !== undefined;
  if (options.rawOnly && !rawOnly)
    logger.warn(
      "state: the remote holds no warehouse snapshot yet; pulling the whole state, not the raw tables only",
      {
        location: storage.location,
      },
    );
  const named = Object.entries(index?.objects ?? {});
  // with a snapshot, the nights it holds stay on the remote: a restore downloads the snapshot and the nights after —
  // not the current month's earlier nights, which a publish takes packed from the previous release (a few MB where
  // the nights are over a hundred at 220,000 repositories, publish/dataset-carry.ts)
  const leftBehind = (rel: string) => {
    const table = warehouseTableOf(rel);
    if (rawOnly && table !== undefined && !isRawTable(table)) return true;
    if (snapshot === undefined || !options.recent) return false;
    const night = nightOf(rel);
    if (night !== undefined) return night <= snapshot;
    const run = /^runs\/(\d{4}-\d{2}-\d{2})\//.exec(rel)?.[1];
    return run !== undefined && run < isoDaysBefore(snapshot, RUN_REPORTS_BEFORE_SNAPSHOT_DAYS);
  };
  const entries = named.filter(([rel]) => !leftBehind(rel));
  // a file present is complete (every local write is a rename): only the missing ones are fetched; a pack is
  // present when this folder last unpacked the same bytes
  const unpacked = await readUnpacked(stateRoot);
  const missing = entries.filter(([rel, entry]) =>
    PACK_PATTERN.test(rel) ? unpacked[rel] !== entry.sha256 : !existsSync(localPath(stateRoot, rel)),
  );
  const cache = await openHashCache(stateRoot);
  const progress = startProgress(logger, "state pull", missing.length);
  // each pack is recorded once unpacked, so a pull killed midway fetches only the packs it had not finished
  let recorded = Promise.resolve();
  await mapLimited(missing, options.concurrency, async ([rel, entry]) => {
    if (PACK_PATTERN.test(rel)) {
      await unpack(stateRoot, rel, await download(storage, stateRoot, rel, entry, { keepTemp: true }));
      unpacked[rel] = entry.sha256;
      recorded = recorded.then(() => writeJsonAtomic(path.join(stateRoot, UNPACKED_FILE), { ...unpacked }));
      await recorded;
    } else cache.remember(await downloaded(stateRoot, rel, entry, storage), entry.sha256);
    progress.tick();
  });
  const bytes = missing.reduce((sum, [, entry]) => sum + entry.bytes, 0);
  progress.done({ bytes });
  await cache.save();
  // a publish takes the nights left here from the previous release, and refuses one it lacks (core/history-left.ts)
  await writeHistoryLeft(stateRoot, {
    location: storage.location,
    nights: named
      .filter(([rel]) => leftBehind(rel) && PACKED_HISTORY.test(rel))
      .flatMap(([rel]) => nightOf(rel) ?? []),
  });
  // a snapshot this folder held from before is not the remote's: gone, so a push never sends it back
  if (snapshot !== undefined) {
    for (const older of await localSnapshots(stateRoot))
      if (older !== snapshot)
        await rm(path.join(stateRoot, SNAPSHOT_DIR, older), { recursive: true, force: true });
  }
  // a raw-only pull's nights are its raw tables' (it has no snapshots): those of GitHub's repositories, every night's
  const nights = await historyNights(
    paths.history,
    rawOnly ? { dir: path.posix.join("raw", "raw_github_repos"), key: "run_date" } : undefined,
  );
  let warehouse: PullReport["warehouse"] = "kept";
  let restored: RestoreReport | undefined;
  // a warehouse restored for collection alone gives way to a whole one
  if (!rawOnly && (await isRawOnlyWarehouse(paths.warehouse))) {
    logger.info("state: replacing the raw-only warehouse with a whole one", { warehouse: paths.warehouse });
    await rm(paths.warehouse, { force: true });
    await rm(`${paths.warehouse}.wal`, { force: true });
  }
  if (!existsSync(paths.warehouse)) {
    await removeRebuildLeftovers(paths.warehouse);
    if (snapshot !== undefined) {
      warehouse = "restored";
      restored = await restoreWarehouse({
        stateRoot,
        night: snapshot,
        historyRoot: paths.history,
        target: paths.warehouse,
        logger,
        rawOnly,
      });
    } else {
      warehouse = nights.length > 0 ? "rebuilt" : "none";
      if (nights.length > 0) await rebuildWarehouse({ root: paths.history, target: paths.warehouse, logger });
    }
  }
  const report: PullReport = {
    location: storage.location,
    objects: entries.length,
    downloaded: missing.length,
    present: entries.length - missing.length,
    bytes,
    warehouse,
    ...(rawOnly ? { raw_only: true } : {}),
    snapshot: snapshot ?? null,
    nights: nights.length,
    left_on_remote: named.length - entries.length,
    ...(restored ? { restore_ms: restored.duration_ms } : {}),
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("state: pulled", { ...report });
  return report;
}

/** The night of the latest snapshot the index names whole (its manifest, written in the same push as its tables). */
function latestSnapshot(index: StateIndex | undefined): string | undefined {
  const nights = Object.keys(index?.objects ?? {})
    .map((rel) => SNAPSHOT_FILE.exec(rel))
    .filter((m) => m !== null && m[2] === "manifest.json")
    .map((m) => m?.[1] as string)
    .sort();
  return nights.at(-1);
}

/**
 * The warehouse table a state file holds rows of: a snapshot's table file, or a history part's table (history/raw/<t>/,
 * history/kept/<t>/, history/snapshots/, history/lifecycle/, history/packages/); undefined for any other file.
 */
function warehouseTableOf(rel: string): string | undefined {
  const snapshotFile = SNAPSHOT_FILE.exec(rel)?.[2];
  if (snapshotFile !== undefined)
    return snapshotFile === "manifest.json" ? undefined : snapshotFile.split(".")[0];
  const history = /^history\/(?:(?:raw|kept)\/)?([a-z_]+)\//.exec(rel)?.[1];
  return history === undefined ? undefined : (HISTORY_TABLES[history] ?? history);
}

/** The history folders not named after their table (pipeline/history.ts historyParts). */
const HISTORY_TABLES: Readonly<Record<string, string>> = {
  lifecycle: "lifecycle_candidates",
  packages: "feat_packages",
};

/** A history file of a table publish packs by month. */
const PACKED_HISTORY = new RegExp(`^history/(?:${PACKED_HISTORY_TABLES.join("|")})/`);

/** The night of a history file (history/<table>/date=D/… or run_date=D/…); undefined for any other file. */
function nightOf(rel: string): string | undefined {
  return /^history\/.*\/(?:run_date|date)=(\d{4}-\d{2}-\d{2})\//.exec(rel)?.[1];
}

function isoDaysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The temp files (and their DuckDB WAL) of a rebuild killed midway: `warehouse.duckdb.<pid>.tmp[.wal]`. */
async function removeRebuildLeftovers(warehouse: string): Promise<void> {
  const dir = path.dirname(warehouse);
  const stem = `${path.basename(warehouse)}.`;
  for (const name of await readdir(dir)) {
    if (name.startsWith(stem) && /\.\d+\.tmp(\.wal)?$/.test(name))
      await rm(path.join(dir, name), { force: true });
  }
}

/** The packs this folder holds unpacked, by their sha256 (a cache: missing or damaged, every pack is fetched). */
const UNPACKED_FILE = "state-packs.json";

async function readUnpacked(stateRoot: string): Promise<Record<string, string>> {
  const text = await readTextIfExists(path.join(stateRoot, UNPACKED_FILE));
  if (text === undefined) return {};
  try {
    return z.record(z.string(), z.string()).parse(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof z.ZodError) return {};
    throw error;
  }
}

/** Downloads one state file (not a pack) into place; returns it as listed. */
async function downloaded(
  stateRoot: string,
  rel: string,
  entry: IndexEntry,
  storage: Storage,
): Promise<LocalFile> {
  const file = await download(storage, stateRoot, rel, entry);
  const info = await stat(file);
  return { rel, file, bytes: info.size, mtimeMs: info.mtimeMs };
}

/**
 * Downloads one object to a temp file and checks its size and hash against the index; then renames it into place
 * and returns its path, or (keepTemp, a pack) returns the checked temp file for the caller to use and remove.
 */
async function download(
  storage: Storage,
  stateRoot: string,
  rel: string,
  entry: IndexEntry,
  options: { keepTemp?: boolean } = {},
): Promise<string> {
  const key = stateKey(rel);
  const file = localPath(stateRoot, rel);
  const temp = tempPath(file);
  await mkdir(path.dirname(file), { recursive: true });
  try {
    if (!(await storage.getFile(key, temp))) {
      throw new AppError(`${storage.location}/${key} is named by the state index but does not exist.`, {
        hint: "Push the state again from a machine that has it (projintel state push), then pull.",
        stage: "state",
      });
    }
    const info = await stat(temp);
    if (info.size !== entry.bytes || (await sha256File(temp)) !== entry.sha256) {
      throw new AppError(`${storage.location}/${key} differs from what the state index records.`, {
        hint: "Another push may be running (or was killed while replacing it); run the pull again after it ends.",
        stage: "state",
      });
    }
    if (options.keepTemp) return temp;
    // The history is the durable record: synced to disk. An ETag entry lost to a power cut is only a cache miss.
    if (rel.startsWith("history/")) await commitTempFile(temp, file);
    else await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return file;
}

/**
 * Uploads every state file the remote lacks or holds different bytes of, confirms them in a listing, then writes
 * the index. `only` limits the push to those paths (a run's manifest at the end of a night).
 */
export async function pushState(
  options: StateSyncOptions & { only?: readonly string[] },
): Promise<PushReport> {
  const { storage, stateRoot, logger } = options;
  const started = performance.now();
  const all = await listStateFiles(stateRoot);
  const localSnapshot = (await localSnapshots(stateRoot)).at(-1);
  const local = options.only ? all.filter((f) => options.only?.includes(f.rel)) : all;
  const cache = await openHashCache(stateRoot);
  const hashedAll = await mapLimited(local, options.concurrency, async (f) => ({
    ...f,
    sha256: await cache.hash(f),
  }));
  const index = (await readIndex(storage)) ?? { version: 1 as const, pushed_at: "", objects: {} };
  const listed = await listedSizes(storage);
  // the ETag cache goes as packs (a push of `only` some files never packs)
  const hashed = hashedAll.filter((f) => options.only || !isPackedFile(f.rel));
  const packs = options.only ? [] : packsOf(hashedAll, index, listed);
  const changed = hashed.filter(
    (f) => index.objects[f.rel]?.sha256 !== f.sha256 || listed.get(stateKey(f.rel)) !== f.bytes,
  );
  const changedPacks = packs.filter((p) => p.changed);
  const replaced = [...changed, ...changedPacks].filter((f) => index.objects[f.rel] !== undefined);
  if (replaced.length > 0) {
    // Objects the index names are about to be replaced: first an index without them (and without the rest of
    // their night), so a pull meanwhile never mixes a night's old files with its new ones.
    const groups = new Set(replaced.map((f) => groupOf(f.rel)));
    const kept = Object.entries(index.objects).filter(([rel]) => !groups.has(groupOf(rel)));
    await writeIndex(storage, Object.fromEntries(kept));
  }
  const progress = startProgress(logger, "state push", changed.length + changedPacks.length);
  await mapLimited(changed, options.concurrency, async (f) => {
    await storage.putFile(stateKey(f.rel), f.file, { sha256: f.sha256 });
    progress.tick();
  });
  const uploadedPacks = await mapLimited(changedPacks, options.concurrency, async (p) => {
    const file = await writePack(stateRoot, p.rel, p.members);
    try {
      const uploaded = {
        rel: p.rel,
        bytes: (await stat(file)).size,
        sha256: await sha256File(file),
        members: p.digest,
      };
      await storage.putFile(stateKey(p.rel), file, { sha256: uploaded.sha256 });
      progress.tick();
      return uploaded;
    } finally {
      await rm(file, { force: true });
    }
  });
  const bytes = [...changed, ...uploadedPacks].reduce((sum, f) => sum + f.bytes, 0);
  progress.done({ bytes });
  if (changed.length + uploadedPacks.length > 0) {
    const confirmed = await listedSizes(storage);
    const unconfirmed = [...changed, ...uploadedPacks].filter(
      (f) => confirmed.get(stateKey(f.rel)) !== f.bytes,
    );
    if (unconfirmed.length > 0) {
      throw new AppError(
        `${unconfirmed.length} uploaded state objects are not listed with their size on ${storage.location} (first: ${stateKey(unconfirmed[0]?.rel ?? "")}).`,
        { hint: "The index was left as it was; run the push again.", stage: "state" },
      );
    }
    // cache files pushed one by one before packs existed are named by their pack now; a snapshot replaced by a
    // newer one leaves the index (its objects are removed after it)
    const objects = Object.fromEntries(
      Object.entries(index.objects).filter(
        ([rel]) => options.only || (!isPackedFile(rel) && !supersededSnapshot(rel, localSnapshot)),
      ),
    );
    for (const f of hashed) objects[f.rel] = { bytes: f.bytes, sha256: f.sha256 };
    for (const p of uploadedPacks) objects[p.rel] = { bytes: p.bytes, sha256: p.sha256, members: p.members };
    await writeIndex(storage, objects);
    if (!options.only) {
      for (const rel of Object.keys(index.objects).filter((r) => supersededSnapshot(r, localSnapshot)))
        await storage.delete(stateKey(rel));
    }
  }
  await cache.save();
  const report: PushReport = {
    location: storage.location,
    objects: hashed.length + packs.length,
    uploaded: changed.length + uploadedPacks.length,
    unchanged: hashed.length + packs.length - changed.length - uploadedPacks.length,
    bytes,
    duration_ms: Math.round(performance.now() - started),
  };
  logger.info("state: pushed", { ...report });
  return report;
}

interface Pack {
  rel: string;
  members: LocalFile[];
  digest: string;
  /** The remote lacks this pack, or holds other members. */
  changed: boolean;
}

/** The ETag cache's files grouped into their packs, each compared by its members' digest with the index's. */
function packsOf(
  files: readonly (LocalFile & { sha256: string })[],
  index: StateIndex,
  listed: ReadonlyMap<string, number>,
): Pack[] {
  const groups = new Map<string, (LocalFile & { sha256: string })[]>();
  for (const f of files) {
    const pack = packOf(f.rel);
    if (pack === undefined) continue;
    groups.set(pack, [...(groups.get(pack) ?? []), f]);
  }
  return [...groups].map(([rel, members]) => {
    const digest = membersDigest(members);
    const known = index.objects[rel];
    const changed = known?.members !== digest || listed.get(stateKey(rel)) !== known.bytes;
    return { rel, members, digest, changed };
  });
}

/** `fn` over every item, `concurrency` at a time; after the first failure the transfers not started are skipped. */
async function mapLimited<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const limit = pLimit(concurrency);
  const failures: unknown[] = [];
  // Every transfer already started ends before the failure is thrown: none writes into the folder afterwards.
  const settled = await Promise.allSettled(
    items.map((item) =>
      limit(async () => {
        if (failures.length > 0) throw failures[0];
        return fn(item).catch((error: unknown) => {
          failures.push(error);
          throw error;
        });
      }),
    ),
  );
  if (failures.length > 0) throw failures[0];
  return settled.map((r) => (r as PromiseFulfilledResult<R>).value);
}

/**
 * A history file belongs to its night (every partition of it goes or stays together), a snapshot's file to its
 * snapshot; any other file to itself.
 */
function groupOf(rel: string): string {
  const night = nightOf(rel);
  if (night) return `history:${night}`;
  const snapshot = SNAPSHOT_FILE.exec(rel)?.[1];
  return snapshot ? `snapshot:${snapshot}` : rel;
}

/** A snapshot file of another night than the folder's own snapshot (none: nothing is superseded). */
function supersededSnapshot(rel: string, local: string | undefined): boolean {
  const night = SNAPSHOT_FILE.exec(rel)?.[1];
  return local !== undefined && night !== undefined && night !== local;
}

async function listedSizes(storage: Storage): Promise<Map<string, number>> {
  return new Map((await storage.listObjects(STATE_PREFIX)).map((o) => [o.key, o.bytes]));
}

async function readIndex(storage: Storage): Promise<StateIndex | undefined> {
  const body = await storage.get(STATE_INDEX_KEY);
  if (body === undefined) return undefined;
  const where = `${storage.location}/${STATE_INDEX_KEY}`;
  let parsed: StateIndex;
  try {
    parsed = indexSchema.parse(JSON.parse(body.toString("utf8")));
  } catch (error) {
    throw new AppError(`${where} is not a valid state index.`, {
      hint: "Push the state from a machine that has it (projintel state push) to write it again.",
      stage: "state",
      cause: error,
    });
  }
  const foreign = Object.keys(parsed.objects).find((rel) => !isStateFile(rel) && !PACK_PATTERN.test(rel));
  if (foreign !== undefined) {
    throw new AppError(`${where} names "${foreign}", which is not a state file.`, {
      hint: "Only history, ETag cache, linked seed and run report files are state; push the state again.",
      stage: "state",
    });
  }
  return parsed;
}

async function writeIndex(storage: Storage, objects: StateIndex["objects"]): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(objects).sort(([a], [b]) => compareKeys(a, b)));
  const index: StateIndex = { version: 1, pushed_at: new Date().toISOString(), objects: sorted };
  await storage.putPointer(STATE_INDEX_KEY, `${JSON.stringify(index)}\n`);
}
