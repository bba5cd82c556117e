// A repository's numbers at any instant, computed directly from its parameters (O(1) per value):
// stars, forks, watchers, commits, issues, pull requests and releases, all consistent with each other.

import { between, normal, SALT, unit } from "./random.ts";
import { FLAG_EMPTY, FLAG_FORK, FLAG_GH_RELEASES, FLAG_PYPI } from "./repo-params.ts";
import { commitCurve, commitTime, firstInstantReaching, starCurve, starTime } from "./trajectory.ts";
import type { World } from "./world.ts";

/** Days an issue or pull request waits before it is closed or merged. */
const ISSUE_CLOSE_LAG = 14;
const PR_MERGE_LAG = 5;
const PR_CLOSE_LAG = 10;
/** Forks per star: the median and the bounds of its spread. */
const FORK_RATIO = 0.13;
const FORK_RATIO_MIN = 0.05;
const FORK_RATIO_MAX = 0.5;

export interface Ratios {
  fork: number;
  watch: number;
  issuesPerCommit: number;
  issuesPerStar: number;
  issuesClosed: number;
  prsPerCommit: number;
  prsPerStar: number;
  prsMerged: number;
  prsClosed: number;
}

/** Each world's ratios by repository index, made on first use: the issue list asks for them at every step of
 * every item's search (tens of thousands of times a night), and they depend on the seed and the index alone. */
const ratiosByWorld = new WeakMap<World, Readonly<Ratios>[]>();

/** A repository's ratios (the same object on every call: read it, never change it). */
export function ratios(world: World, i: number): Readonly<Ratios> {
  let known = ratiosByWorld.get(world);
  if (!known) {
    known = [];
    ratiosByWorld.set(world, known);
  }
  let r = known[i];
  if (!r) {
    r = drawRatios(world, i);
    known[i] = r;
  }
  return r;
}

function drawRatios(world: World, i: number): Ratios {
  const u = (k: number) => unit(world.seed, i, SALT.ratios, k);
  const merged = between(u(7), 0.5, 0.85);
  return {
    // forks are about 0.13 of stars, log-normal around it (from a twentieth to half)
    fork: Math.min(
      FORK_RATIO_MAX,
      Math.max(FORK_RATIO_MIN, FORK_RATIO * Math.exp(normal(u(0), u(9)) * 0.45)),
    ),
    watch: between(u(1), 0.005, 0.03),
    issuesPerCommit: between(u(2), 0.03, 0.35),
    issuesPerStar: between(u(3), 0.004, 0.03),
    issuesClosed: between(u(4), 0.55, 0.95),
    prsPerCommit: between(u(5), 0.08, 0.6),
    prsPerStar: between(u(6), 0.0005, 0.008),
    prsMerged: merged,
    prsClosed: between(u(8), 0.05, 0.97 - merged),
  };
}

export function exists(world: World, i: number, instant: number): boolean {
  return (world.params.created[i] as number) < instant;
}

/** Continuous stars before flooring, at warped time: the monotone base of every star-driven count. */
function starValue(world: World, i: number, instant: number): number {
  const created = world.params.created[i] as number;
  if (instant <= created) return 0;
  return starCurve(world.params, i, starTime(world.seed, i, instant) - created);
}

function commitValue(world: World, i: number, instant: number): number {
  const created = world.params.created[i] as number;
  if (instant <= created) return 0;
  return commitCurve(world.params, i, commitTime(world.seed, i, instant) - created);
}

/** Monotone star count: what the stargazer list is built from. */
export function starsBase(world: World, i: number, instant: number): number {
  return Math.floor(starValue(world, i, instant));
}

/** Stars as reported: the monotone count, now and then one lower (someone unstarred). */
export function stars(world: World, i: number, instant: number): number {
  const base = starsBase(world, i, instant);
  const dropped = base > 30 && unit(world.seed, i, SALT.starDrop, Math.floor(instant)) < 0.04;
  return dropped ? base - 1 : base;
}

export function forks(world: World, i: number, instant: number): number {
  return Math.floor(starValue(world, i, instant) * ratios(world, i).fork);
}

export function watchers(world: World, i: number, instant: number): number {
  if (!exists(world, i, instant)) return 0;
  return Math.max(1, Math.round(starValue(world, i, instant) * ratios(world, i).watch));
}

/** Commits on the default branch up to an instant (the first commit lands at creation). */
export function commits(world: World, i: number, instant: number): number {
  const flags = world.params.flags[i] as number;
  if (flags & FLAG_EMPTY || !exists(world, i, instant)) return 0;
  return 1 + Math.floor(commitValue(world, i, instant));
}

/** Instant of the n-th commit (1-based), to the second. */
export function commitInstant(world: World, i: number, n: number, now: number): number {
  const created = world.params.created[i] as number;
  if (n <= 1) return created;
  return firstInstantReaching((x) => commits(world, i, x), n, created, now);
}

function activeUntil(world: World, i: number, instant: number): number {
  return Math.min(instant, world.params.actStop[i] as number);
}

/** The commit and star curves at an instant: issues and pull requests opened are linear in both. */
interface Curves {
  commits: number;
  stars: number;
}

function curvesAt(world: World, i: number, instant: number): Curves {
  return { commits: commitValue(world, i, instant), stars: starValue(world, i, instant) };
}

function issuesOpened(world: World, i: number, instant: number, r: Readonly<Ratios>, at?: Curves): number {
  const flags = world.params.flags[i] as number;
  if (flags & (FLAG_EMPTY | FLAG_FORK)) return 0;
  const { commits, stars } = at ?? curvesAt(world, i, instant);
  return Math.floor(r.issuesPerCommit * commits + r.issuesPerStar * stars);
}

export function issueCounts(world: World, i: number, instant: number): { open: number; closed: number } {
  const r = ratios(world, i);
  const total = issuesOpened(world, i, instant, r);
  const horizon = activeUntil(world, i, instant - ISSUE_CLOSE_LAG);
  const closed = Math.floor(r.issuesClosed * issuesOpened(world, i, horizon, r));
  return { open: total - closed, closed };
}

function prsOpened(world: World, i: number, instant: number, r: Readonly<Ratios>, at?: Curves): number {
  if ((world.params.flags[i] as number) & FLAG_EMPTY) return 0;
  const { commits, stars } = at ?? curvesAt(world, i, instant);
  return Math.floor(r.prsPerCommit * commits + r.prsPerStar * stars);
}

export function pullRequestCounts(
  world: World,
  i: number,
  instant: number,
): { open: number; merged: number; closed: number } {
  const r = ratios(world, i);
  const total = prsOpened(world, i, instant, r);
  const merged = Math.floor(
    r.prsMerged * prsOpened(world, i, activeUntil(world, i, instant - PR_MERGE_LAG), r),
  );
  const closed = Math.floor(
    r.prsClosed * prsOpened(world, i, activeUntil(world, i, instant - PR_CLOSE_LAG), r),
  );
  return { open: total - merged - closed, merged, closed };
}

/**
 * Issues and pull requests opened up to an instant (the length of their numbered sequence): what issueCounts
 * and pullRequestCounts add up to, since each splits its opened items into open, closed and merged ones.
 */
export function itemsOpened(world: World, i: number, instant: number): number {
  if ((world.params.flags[i] as number) & FLAG_EMPTY) return 0;
  // each curve evaluated once for both
  const r = ratios(world, i);
  const at = curvesAt(world, i, instant);
  return issuesOpened(world, i, instant, r, at) + prsOpened(world, i, instant, r, at);
}

/** Releases cut up to an instant (GitHub releases and PyPI uploads follow the same sequence). */
export function releaseCount(world: World, i: number, instant: number): number {
  const p = world.params;
  if (!((p.flags[i] as number) & (FLAG_GH_RELEASES | FLAG_PYPI))) return 0;
  return Math.floor(
    (p.releaseRate[i] as number) * commitValue(world, i, instant) + (p.releaseOffset[i] as number),
  );
}

/** Instant of the k-th release (1-based); `near` says which end of the history to search from. */
export function releaseInstant(
  world: World,
  i: number,
  k: number,
  now: number,
  near: "low" | "high" = "high",
): number {
  return firstInstantReaching(
    (x) => releaseCount(world, i, x),
    k,
    world.params.created[i] as number,
    now,
    near,
  );
}

/** Instant the k-th star (1-based, k <= starsBase(now)) was given. */
export function starInstant(
  world: World,
  i: number,
  k: number,
  now: number,
  near: "low" | "high" = "high",
): number {
  return firstInstantReaching((x) => starsBase(world, i, x), k, world.params.created[i] as number, now, near);
}

export function isArchived(world: World, i: number, instant: number): boolean {
  return (world.params.archivedAt[i] as number) <= instant;
}

/** Last instant anything visible changed (a push or a star), looking back at most 30 days for stars. */
export function updatedInstant(world: World, i: number, now: number, pushed: number): number {
  const today = Math.floor(now);
  for (let day = today - 1; day >= today - 30; day--) {
    if (starsBase(world, i, day + 1) > starsBase(world, i, day)) {
      const at = day + unit(world.seed, i, SALT.time, day);
      return Math.max(at, pushed);
    }
  }
  return pushed;
}
