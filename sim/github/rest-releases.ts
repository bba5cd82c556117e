// GET /repos/{o}/{r}/releases: the repository's GitHub releases, newest first, in the shape of the
// recorded releases-list pages (the same sequence GraphQL's `releases` shows).
import { formatInstant } from "../dates.ts";
import { releaseInstant } from "../metrics.ts";
import { encodeNestedId } from "../node-id.ts";
import { SALT, unit } from "../random.ts";
import { type ReleaseRecord, releasesAt } from "../releases.ts";
import { FLAG_GH_RELEASES } from "../repo-params.ts";
import { defaultBranchOf } from "../repo-text.ts";
import type { World } from "../world.ts";
import { API, ownerJson } from "./rest-json.ts";

/** Releases newest first (empty when the repository publishes none on GitHub). */
export function releasesNewestFirst(world: World, i: number, now: number): ReleaseRecord[] {
  if (!((world.params.flags[i] as number) & FLAG_GH_RELEASES)) return [];
  return releasesAt(world, i, now).reverse();
}

export function releaseJson(world: World, i: number, release: ReleaseRecord, total: number, now: number) {
  const full = world.fullNameAt(i, now);
  const id = 30_000_000 + i * 1024 + release.k;
  const published = releaseInstant(world, i, release.k, now, release.k * 2 > total ? "high" : "low");
  const created = published - 0.08 * unit(world.seed, i, SALT.time, release.k);
  const url = `${API}/repos/${full}/releases/${id}`;
  return {
    url,
    assets_url: `${url}/assets`,
    html_url: `https://github.com/${full}/releases/tag/${release.tagName}`,
    id,
    node_id: encodeNestedId("RE", world.databaseId(i), id),
    tag_name: release.tagName,
    target_commitish: defaultBranchOf(world, i) ?? "main",
    name: release.name,
    draft: false,
    prerelease: release.isPrerelease,
    created_at: formatInstant(created),
    published_at: formatInstant(published),
    author: ownerJson(world, world.ownerOf(i)),
    assets: [],
    tarball_url: `${API}/repos/${full}/tarball/${release.tagName}`,
    zipball_url: `${API}/repos/${full}/zipball/${release.tagName}`,
    body: `Release ${release.name}`,
  };
}
