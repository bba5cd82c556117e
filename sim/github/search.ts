// Repository and issue search over the world at the sim date. As on GitHub, repositoryCount is the true
// count but only the first 1,000 results can be paged; results are cached per (date, query). Free words
// and phrases are matched by search-text.ts.
import { exists, forks, isArchived, issueCounts, pullRequestCounts, stars } from "../metrics.ts";
import { FLAG_FORK } from "../repo-params.ts";
import { languageOf, licenseOf, topicIndex, topicsOf } from "../repo-text.ts";
import type { World } from "../world.ts";
import { parseSearchQuery, type Range, type SearchFilters } from "./search-query.ts";
import { DEFAULT_TEXT_FIELDS, matchesText, textCandidates } from "./search-text.ts";

export const SEARCH_RESULT_CAP = 1_000;
const CACHE_SIZE = 64;

export interface SearchResult {
  /** Every matching repository (repositoryCount). */
  total: number;
  /** World indices of the first 1,000 matches, in result order. */
  indices: Int32Array;
}

const topicIndexes = new WeakMap<World, Map<number, Int32Array>>();
const caches = new WeakMap<World, Map<string, SearchResult>>();

/** Repositories carrying each topic, built on the first topic search. */
function reposWithTopic(world: World, topic: number): Int32Array {
  let index = topicIndexes.get(world);
  if (!index) {
    const lists = new Map<number, number[]>();
    for (let i = 0; i < world.size; i++) {
      for (const t of topicsOf(world, i)) {
        const list = lists.get(t);
        if (list) list.push(i);
        else lists.set(t, [i]);
      }
    }
    index = new Map([...lists].map(([t, list]) => [t, Int32Array.from(list)]));
    topicIndexes.set(world, index);
  }
  return index.get(topic) ?? new Int32Array(0);
}

const within = (range: Range | undefined, value: number) =>
  !range || (value >= range.min && value <= range.max);
const withinTime = (range: Range | undefined, value: number) =>
  !range || (value >= range.min && value < range.max);

function matchesStatic(world: World, i: number, f: SearchFilters, now: number): boolean {
  const fork = ((world.params.flags[i] as number) & FLAG_FORK) !== 0;
  if ((f.fork === "exclude" && fork) || (f.fork === "only" && !fork)) return false;
  if (f.archived !== undefined && isArchived(world, i, now) !== f.archived) return false;
  if (!withinTime(f.created, world.params.created[i] as number)) return false;
  if (f.language && languageOf(world, i)?.toLowerCase() !== f.language) return false;
  if (f.license && licenseOf(world, i)?.key !== f.license) return false;
  if (f.owner && world.ownerLogin(world.ownerOf(i)) !== f.owner) return false;
  if (now >= world.deleteDay(i)) return false;
  if (f.repo && world.fullNameAt(i, now).toLowerCase() !== f.repo) return false;
  if (f.topics.length > 0) {
    const own = topicsOf(world, i);
    if (!f.topics.every((t) => own.includes(topicIndex(t) ?? -1))) return false;
  }
  return f.words.length === 0 || matchesText(world, i, f.words, f.in ?? DEFAULT_TEXT_FIELDS, now);
}

/** The smaller of the first topic's repositories and the rarest word's: a superset of the matches. */
function candidates(world: World, f: SearchFilters): ArrayLike<number> | undefined {
  let byTopic: Int32Array | undefined;
  if (f.topics[0] !== undefined) {
    const first = topicIndex(f.topics[0]);
    byTopic = first === undefined ? new Int32Array(0) : reposWithTopic(world, first);
  }
  const byWord = textCandidates(world, f.words);
  if (!byTopic || !byWord) return byTopic ?? byWord;
  return byTopic.length <= byWord.length ? byTopic : byWord;
}

export function searchRepositories(world: World, query: string, now: number): SearchResult {
  const cache = caches.get(world) ?? new Map<string, SearchResult>();
  caches.set(world, cache);
  const key = `${now}|${query}`;
  const hit = cache.get(key);
  if (hit) return hit;

  const f = parseSearchQuery(query);
  const pool = candidates(world, f);
  const count = pool ? pool.length : world.size;
  const matched: number[] = [];
  const keys: number[] = [];
  for (let n = 0; n < count; n++) {
    const i = pool ? (pool[n] as number) : n;
    if (!exists(world, i, now) || !matchesStatic(world, i, f, now)) continue;
    const starCount = stars(world, i, now);
    if (!within(f.stars, starCount)) continue;
    const forkCount = f.forks || f.sort.field === "forks" ? forks(world, i, now) : 0;
    if (!within(f.forks, forkCount)) continue;
    matched.push(i);
    keys.push(
      f.sort.field === "forks"
        ? forkCount
        : f.sort.field === "created"
          ? (world.params.created[i] as number)
          : starCount,
    );
  }
  const order = matched.map((_, n) => n);
  const sign = f.sort.descending ? -1 : 1;
  order.sort(
    (a, b) =>
      sign * ((keys[a] as number) - (keys[b] as number)) || (matched[a] as number) - (matched[b] as number),
  );
  const result = {
    total: matched.length,
    indices: Int32Array.from(order.slice(0, SEARCH_RESULT_CAP), (n) => matched[n] as number),
  };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

/** issueCount of a search(type: ISSUE): issues or pull requests in the matching repositories by state. */
export function countIssues(world: World, query: string, now: number): number {
  const f = parseSearchQuery(query);
  const [owner, name] = f.repo ? f.repo.split("/") : [];
  const only = owner && name ? world.findRepo(owner, name) : undefined;
  if (f.repo && only === undefined) return 0;
  let total = 0;
  for (let i = only ?? 0; i < (only === undefined ? world.size : only + 1); i++) {
    if (!exists(world, i, now)) continue;
    if (f.owner && world.ownerLogin(world.ownerOf(i)) !== f.owner) continue;
    total += issueLikeCount(world, i, now, f);
  }
  return total;
}

function issueLikeCount(world: World, i: number, now: number, f: SearchFilters): number {
  const prs = f.kind === "issue" ? { open: 0, merged: 0, closed: 0 } : pullRequestCounts(world, i, now);
  const issues = f.kind === "pr" ? { open: 0, closed: 0 } : issueCounts(world, i, now);
  if (f.state === "merged") return prs.merged;
  const open = issues.open + prs.open;
  const closed = issues.closed + prs.merged + prs.closed;
  return f.state === "open" ? open : f.state === "closed" ? closed : open + closed;
}
