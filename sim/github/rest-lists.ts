// The REST lists GitHub computes from a repository's history: contributors (ranked by commits),
// stargazers (oldest first, with starred_at under the star+json media type) and 52 weeks of commit activity.
import { formatInstant } from "../dates.ts";
import * as m from "../metrics.ts";
import { stargazerLogin } from "../names.ts";
import { hash32, normal, SALT, unit } from "../random.ts";
import type { World } from "../world.ts";
import { userJson } from "./rest-json.ts";

/** GitHub lists at most this many stargazers of a repository (400 pages of 100). */
export const STARGAZER_LIST_CAP = 40_000;

/** Contributors grow as stars^CONTRIBUTOR_EXPONENT (GitHub: ~8 at 100 stars, ~500 at 100,000), capped. */
const CONTRIBUTOR_SCALE = 0.5;
const CONTRIBUTOR_EXPONENT = 0.6;
const CONTRIBUTOR_CAP = 5_000;

/** How many people have committed to the default branch up to an instant. */
export function contributorCount(world: World, i: number, now: number): number {
  const commits = m.commits(world, i, now);
  if (commits === 0) return 0;
  // log-normal noise per repository: some projects draw far more contributors than their stars suggest
  const spread = Math.exp(
    0.5 * normal(unit(world.seed, i, SALT.contributors), unit(world.seed, i, SALT.contributors, 1)),
  );
  const drawn = CONTRIBUTOR_SCALE * m.starsBase(world, i, now) ** CONTRIBUTOR_EXPONENT;
  const floor = 0.3 * Math.sqrt(commits);
  return Math.min(commits, CONTRIBUTOR_CAP, 1 + Math.floor(Math.max(drawn, floor) * spread));
}

/** Commits of the k-th contributor (1-based rank): a Zipf-like tail, never below one. */
function contributions(commits: number, k: number): number {
  return Math.max(1, Math.round((commits * 0.45) / k ** 1.15));
}

function contributorLogin(world: World, i: number, k: number): string {
  return k === 1 && !world.isOrganization(world.ownerOf(i))
    ? world.ownerLogin(world.ownerOf(i))
    : stargazerLogin(world.seed, i, -k);
}

export function contributorsPage(world: World, i: number, now: number, first: number, count: number) {
  const commits = m.commits(world, i, now);
  const out = [];
  for (let k = first; k < first + count; k++) {
    const id = 30_000_000 + (hash32(world.seed, i, -k, SALT.contributors) % 2_000_000_000);
    out.push({ ...userJson(contributorLogin(world, i, k), id), contributions: contributions(commits, k) });
  }
  return out;
}

/** Stargazers first..first+count-1 (1-based, oldest first). */
export function stargazersPage(
  world: World,
  i: number,
  now: number,
  first: number,
  count: number,
  withTimes: boolean,
) {
  const total = m.starsBase(world, i, now);
  const near = first * 2 > total ? "high" : "low";
  const out = [];
  for (let k = first; k < first + count; k++) {
    const user = userJson(
      stargazerLogin(world.seed, i, k),
      20_000_000 + (hash32(world.seed, i, k, SALT.stargazer) % 2_000_000_000),
    );
    out.push(withTimes ? { starred_at: formatInstant(m.starInstant(world, i, k, now, near)), user } : user);
  }
  return out;
}

/** GET /repos/{o}/{r}/stats/commit_activity: the last 52 weeks, each starting on a Sunday 00:00Z. */
export function commitActivity(world: World, i: number, now: number) {
  const today = Math.floor(now);
  const thisWeek = today - ((today + 4) % 7);
  const weeks = [];
  for (let w = 51; w >= 0; w--) {
    const start = thisWeek - w * 7;
    const days: number[] = [];
    let before = m.commits(world, i, start);
    for (let d = 0; d < 7; d++) {
      const end = Math.min(start + d + 1, now);
      const after = end <= start + d ? before : m.commits(world, i, end);
      days.push(after - before);
      before = after;
    }
    weeks.push({ days, total: days.reduce((a, b) => a + b, 0), week: start * 86_400 });
  }
  return weeks;
}
