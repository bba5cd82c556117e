// Deletes old releases: keeps the current one plus the newest `keep` complete others; everything else
// (older releases, and folders of publishes that failed before their manifest) goes.

import { compareKeys, type Storage } from "../core/storage.ts";
import { isReleaseId, MANIFEST_FILE, RELEASES, releaseKey, releasePrefix } from "./layout.ts";

/** Returns the ids deleted, oldest first. Never deletes `currentId`. */
export async function pruneReleases(storage: Storage, currentId: string, keep: number): Promise<string[]> {
  const folders = await storage.list(`${RELEASES}/`, { children: true });
  const ids = folders
    .filter((f) => f.endsWith("/"))
    .map((f) => f.slice(RELEASES.length + 1, -1))
    .filter((id) => isReleaseId(id) && id !== currentId)
    .sort(compareKeys)
    .reverse();
  const kept: string[] = [];
  const doomed: string[] = [];
  for (const id of ids) {
    if (kept.length < keep && (await storage.exists(releaseKey(id, MANIFEST_FILE)))) kept.push(id);
    else doomed.push(id);
  }
  doomed.reverse();
  // The manifest goes first, so a prune interrupted halfway leaves an incomplete release, never one that
  // still looks complete with files missing.
  for (const id of doomed) {
    await storage.delete(releaseKey(id, MANIFEST_FILE));
    await storage.deletePrefix(releasePrefix(id));
  }
  return doomed;
}

/**
 * Removes the temp files a publish killed midway left under releases/ (a half-written object or pointer); its
 * release folder, having no manifest, goes with the next prune.
 */
export async function removeReleaseLeftovers(storage: Storage): Promise<number> {
  return storage.sweep(`${RELEASES}/`);
}
