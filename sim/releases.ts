// Release history: the k-th release of a repository gets a semver tag (v1.2.3, some -rc prereleases)
// from a per-repository random walk, shared by GitHub releases and the PyPI project.
import { releaseCount, releaseInstant } from "./metrics.ts";
import { SALT, unit } from "./random.ts";
import type { World } from "./world.ts";

export interface ReleaseRecord {
  /** 1-based position in creation order. */
  k: number;
  tagName: string;
  /** PEP 440 spelling of the same version ("1.3.0rc1"). */
  pypiVersion: string;
  name: string;
  isPrerelease: boolean;
  yanked: boolean;
}

/** Upper bound on releases per repository, so release node ids stay unique (index * 1024 + k). */
export const MAX_RELEASES = 1023;

/** The first `count` releases of a repository, oldest first. O(count). */
export function releaseSequence(world: World, i: number, count: number): ReleaseRecord[] {
  const u = (k: number, part: number) => unit(world.seed, i, SALT.versions, k * 8 + part);
  const prefix = u(0, 1) < 0.75 ? "v" : "";
  const naming = u(0, 2);
  const start = u(0, 3);
  let [major, minor, patch] =
    start < 0.4 ? [0, 1, 0] : start < 0.7 ? [0, 0, 1] : start < 0.9 ? [1, 0, 0] : [0, 2, 0];
  let pendingFinal = false;
  const out: ReleaseRecord[] = [];
  for (let k = 1; k <= Math.min(count, MAX_RELEASES); k++) {
    let pre = false;
    if (k > 1 && pendingFinal) pendingFinal = false;
    else if (k > 1) {
      const roll = u(k, 0);
      const majorChance = major === 0 ? 0.01 + 0.002 * k : 0.03;
      if (roll < majorChance || roll < 0.25) {
        if (roll < majorChance) [major, minor, patch] = [major + 1, 0, 0];
        else [minor, patch] = [minor + 1, 0];
        pre = u(k, 1) < 0.3;
        pendingFinal = pre;
      } else patch += 1;
    }
    const version = `${major}.${minor}.${patch}`;
    const tagName = pre ? `${prefix}${version}-rc.1` : `${prefix}${version}`;
    const name =
      naming < 0.3 ? "" : naming < 0.75 ? tagName : `Release ${version}${pre ? " (release candidate)" : ""}`;
    out.push({
      k,
      tagName,
      pypiVersion: pre ? `${version}rc1` : version,
      name,
      isPrerelease: pre,
      yanked: u(k, 2) < 0.015,
    });
  }
  return out;
}

/** The repository's releases visible at `now`, oldest first (instants are computed on demand). */
export function releasesAt(world: World, i: number, now: number): ReleaseRecord[] {
  return releaseSequence(world, i, Math.min(releaseCount(world, i, now), MAX_RELEASES));
}

/** The same releases with their instants, for bodies that list every release (PyPI). */
export function releasesWithInstants(
  world: World,
  i: number,
  now: number,
): Array<ReleaseRecord & { at: number }> {
  const records = releasesAt(world, i, now);
  return records.map((r) => ({
    ...r,
    at: releaseInstant(world, i, r.k, now, 2 * r.k > records.length ? "high" : "low"),
  }));
}

/** Position (1-based) of the latest non-prerelease among `count` releases, or 0. */
export function latestStableIndex(records: readonly ReleaseRecord[]): number {
  for (let j = records.length - 1; j >= 0; j--) if (!(records[j] as ReleaseRecord).isPrerelease) return j + 1;
  return 0;
}
