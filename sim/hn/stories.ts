// Hacker News stories about simulated repositories: a few per popular repository, most linking its GitHub
// URL. The set does not depend on the date (only which are visible does), so it is built once per world,
// sorted by time, and searches binary-search the time window instead of scanning the world.
import { stargazerLogin } from "../names.ts";
import { between, hash32, SALT, unit } from "../random.ts";
import { FLAG_EMPTY, FLAG_FORK } from "../repo-params.ts";
import { phraseOf } from "../repo-text.ts";
import type { World } from "../world.ts";

export interface StoryIndex {
  /** Instants, ascending. */
  times: Float64Array;
  repos: Int32Array;
  /** Which story of its repository (0 = the first, a Show HN). */
  ks: Uint8Array;
  /** Lower-cased "title url author" per story, filled on first search (queries match against it). */
  texts: (string | undefined)[];
}

/** Most repositories with stories: even the biggest projects are not all on Hacker News. */
const HN_SHARE_MAX = 0.7;
const built = new WeakMap<World, StoryIndex>();

export function storiesOf(world: World): StoryIndex {
  const hit = built.get(world);
  if (hit) return hit;
  const rows: { t: number; i: number; k: number }[] = [];
  for (let i = 0; i < world.size; i++) {
    if ((world.params.flags[i] as number) & (FLAG_FORK | FLAG_EMPTY)) continue;
    const popularity = world.params.popularity[i] as number;
    // few small projects reach Hacker News, most of the biggest do (the star scale is log-normal, median ~50)
    const reach = Math.min(HN_SHARE_MAX, Math.max(0, (Math.log10(1 + popularity) - 1.5) / 5));
    if (unit(world.seed, i, SALT.hn) >= reach) continue;
    const count = 1 + Math.floor(unit(world.seed, i, SALT.hn, 1) * 3);
    const created = world.params.created[i] as number;
    const span = Math.max(30, (world.params.starMid[i] as number) * 1.5);
    for (let k = 0; k < count; k++)
      rows.push({
        t:
          created +
          1 +
          (k === 0
            ? between(unit(world.seed, i, SALT.hn, 2), 0, 60)
            : between(unit(world.seed, i, SALT.hn, 2 + k), 0, span)),
        i,
        k,
      });
  }
  rows.sort((a, b) => a.t - b.t);
  const index: StoryIndex = {
    times: Float64Array.from(rows, (r) => r.t),
    repos: Int32Array.from(rows, (r) => r.i),
    ks: Uint8Array.from(rows, (r) => r.k),
    texts: new Array(rows.length),
  };
  built.set(world, index);
  return index;
}

/** First position whose time is >= instant. */
export function lowerBound(times: Float64Array, instant: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((times[mid] as number) < instant) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface Story {
  objectID: string;
  title: string;
  url: string;
  author: string;
  points: number;
  num_comments: number;
  created_at_i: number;
}

/** What a query matches against, cached per story (title, URL and author do not change with the date). */
export function storyText(world: World, index: StoryIndex, position: number): string {
  let text = index.texts[position];
  if (text === undefined) {
    const story = storyAt(world, index, position, Number.POSITIVE_INFINITY);
    text = `${story.title} ${story.url} ${story.author}`.toLowerCase();
    index.texts[position] = text;
  }
  return text;
}

/** The story at a position of the index, with its score as of `now` (points settle within two days). */
export function storyAt(world: World, index: StoryIndex, position: number, now: number): Story {
  const i = index.repos[position] as number;
  const k = index.ks[position] as number;
  const t = index.times[position] as number;
  const u = (n: number) => unit(world.seed, i, SALT.hn, 10 + k * 8 + n);
  const popularity = world.params.popularity[i] as number;
  const final = Math.round(2 + Math.exp(between(u(0), 0, 2)) * Math.sqrt(popularity) * (k === 0 ? 1 : 0.4));
  const settled = Math.min(1, (now - t) / 2);
  const points = Math.max(1, Math.round(final * settled));
  const name = world.repoName(i);
  const github = u(1) < 0.75;
  const owner = world.ownerLogin(world.ownerOf(i));
  return {
    objectID: String(30_000_000 + position * 17 + (hash32(world.seed, i, k, SALT.hn) % 17)),
    title: `${k === 0 ? "Show HN: " : ""}${name} – ${phraseOf(world, i)}`,
    url: github
      ? `https://github.com/${world.fullName(i)}`
      : `https://${owner.toLowerCase()}.github.io/posts/${name.toLowerCase()}/`,
    author: stargazerLogin(world.seed, i, 3_000_000 + k),
    points,
    num_comments: Math.round(points * between(u(2), 0.1, 0.9)),
    created_at_i: Math.floor(t * 86_400),
  };
}
