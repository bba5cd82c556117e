// Deletes old releases: keeps the current one, the newest `keep` complete others, and every complete release younger
// than the retention period; everything else (older releases, and folders of publishes that never got their
// manifest) goes. On a remote target the public databases of the nights no kept release serves go with them, and the
// history parts no remaining night's manifest names.

import {
  gzippedKey,
  PARTS_FOLDER,
  PUBLIC_DB_PREFIX,
  parsePublicDbFile,
  parsePublicDbManifest,
  publicDbManifestKey,
  publicDbPartKey,
} from "../core/public-db.ts";
import { compareKeys, type Storage } from "../core/storage.ts";
import {
  isReleaseId,
  MANIFEST_FILE,
  RELEASES,
  releaseCreatedAt,
  releaseKey,
  releasePrefix,
  runDateOfRelease,
} from "./layout.ts";

const DAY_MS = 86_400_000;

export interface PruneOptions {
  /** Complete releases kept besides the current one, however old. */
  keep: number;
  /** A release younger than this is kept even beyond `keep` (0: by count alone). */
  retentionDays?: number;
  now?: Date;
  /**
   * Also delete `public-db/<name>.duckdb` and `.json` of nights no remaining release serves (every build of a night
   * some release serves stays), and the parts no remaining manifest names (a remote target).
   */
  publicDbs?: boolean;
}

export interface PruneResult {
  /** Release ids deleted, oldest first. */
  releases: string[];
  /** Names (core/public-db.ts PUBLIC_DB_NAME) of the public databases deleted. */
  publicDbs: string[];
}

/** Never deletes `currentId`, nor a release whose manifest exists and is within `keep` or the retention period. */
export async function pruneReleases(
  storage: Storage,
  currentId: string,
  options: PruneOptions,
): Promise<PruneResult> {
  const now = (options.now ?? new Date()).getTime();
  const retentionMs = (options.retentionDays ?? 0) * DAY_MS;
  const ids = (await releaseIds(storage)).filter((id) => id !== currentId).reverse();
  const kept: string[] = [currentId];
  const doomed: string[] = [];
  let counted = 0;
  for (const id of ids) {
    const complete = await storage.exists(releaseKey(id, MANIFEST_FILE));
    const young = now - releaseCreatedAt(id).getTime() < retentionMs;
    if (complete && (counted < options.keep || young)) {
      counted++;
      kept.push(id);
    } else doomed.push(id);
  }
  doomed.reverse();
  // The manifest goes first, so a prune interrupted halfway leaves an incomplete release, never one that
  // still looks complete with files missing.
  for (const id of doomed) {
    await storage.delete(releaseKey(id, MANIFEST_FILE));
    await storage.deletePrefix(releasePrefix(id));
  }
  const publicDbs = options.publicDbs
    ? await prunePublicDbs(storage, new Set(kept.map(runDateOfRelease)))
    : [];
  return { releases: doomed, publicDbs };
}

/** Every release folder's id, oldest first (complete or not). */
export async function releaseIds(storage: Storage): Promise<string[]> {
  const folders = await storage.list(`${RELEASES}/`, { children: true });
  return folders
    .filter((f) => f.endsWith("/"))
    .map((f) => f.slice(RELEASES.length + 1, -1))
    .filter(isReleaseId)
    .sort(compareKeys);
}

async function prunePublicDbs(storage: Storage, served: ReadonlySet<string>): Promise<string[]> {
  const deleted: string[] = [];
  const partsPrefix = `${PUBLIC_DB_PREFIX}${PARTS_FOLDER}/`;
  const keys = await storage.list(PUBLIC_DB_PREFIX);
  /** The public database a key under public-db/ is, or its manifest (`<name>.json`); undefined for the rest. */
  const nightOf = (key: string, suffix: string) => {
    const night = key.endsWith(suffix)
      ? parsePublicDbFile(`${key.slice(PUBLIC_DB_PREFIX.length, -suffix.length)}.duckdb`)
      : undefined;
    return night && key.startsWith(PUBLIC_DB_PREFIX) ? night : undefined;
  };
  for (const key of keys) {
    const night = nightOf(key, ".duckdb");
    if (!night || served.has(night.runDate)) continue;
    await storage.delete(publicDbManifestKey(night.name));
    await storage.delete(gzippedKey(key));
    await storage.delete(key);
    deleted.push(night.name);
  }
  // parts go after the nights that named them; a part a kept night names stays, however old
  const named = new Set<string>();
  for (const key of keys) {
    const night = nightOf(key, ".json");
    if (!night || !served.has(night.runDate)) continue;
    const text = await storage.get(key);
    if (!text) continue;
    for (const part of parsePublicDbManifest(text.toString("utf8"), key).parts) {
      named.add(publicDbPartKey(part.name));
      named.add(gzippedKey(publicDbPartKey(part.name)));
    }
  }
  for (const key of keys) {
    if (key.startsWith(partsPrefix) && !named.has(key)) await storage.delete(key);
  }
  return deleted;
}

/**
 * Removes the temp files a publish killed midway left under releases/ (a half-written object or pointer); its
 * release folder, having no manifest, is resumed by the next publish of the same night or goes with the next prune.
 */
export async function removeReleaseLeftovers(storage: Storage): Promise<number> {
  return storage.sweep(`${RELEASES}/`);
}
