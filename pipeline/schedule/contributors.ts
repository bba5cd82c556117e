// Which repositories get their contributor count asked tonight apart from the full REST activity (which costs
// up to 11 requests a repository and so reaches few): one request each, so every tracked repository with at
// least CONTRIBUTOR_MIN_STARS stars is counted within a week. Never-counted ones come first, then the oldest
// counts; once counted, a repository comes back on its phase day (a hash of its node id mod the rotation), so
// the weekly refresh spreads evenly over the nights instead of repeating the first night's burst.
import { phaseOf } from "./tiers.ts";

/** Repositories below this many stars are left to the full activity (their count matters less, and costs as much). */
export const CONTRIBUTOR_MIN_STARS = 100;
/** Nights within which every such repository's count is asked again. */
export const CONTRIBUTOR_ROTATION_DAYS = 7;

export interface ContributorCandidate {
  node_id: string;
  full_name: string;
  stars: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/**
 * Tonight's rotation, in the order to ask: never counted (most stars first), then counts due by age or phase,
 * oldest first. `lastCounted` maps a node id to the YYYY-MM-DD its count was last fetched (absent: never, or
 * too long ago to be kept); repositories counted tonight already (`skip`) are left out.
 */
export function planContributors(
  repos: readonly ContributorCandidate[],
  lastCounted: ReadonlyMap<string, string>,
  runDate: string,
  skip: ReadonlySet<string> = new Set(),
  days = CONTRIBUTOR_ROTATION_DAYS,
): ContributorCandidate[] {
  const today = dayNumber(runDate);
  const never: ContributorCandidate[] = [];
  const due: { repo: ContributorCandidate; last: number }[] = [];
  for (const repo of repos) {
    if (repo.stars < CONTRIBUTOR_MIN_STARS || skip.has(repo.node_id)) continue;
    const last = lastCounted.get(repo.node_id);
    if (last === undefined) {
      never.push(repo);
      continue;
    }
    const age = today - dayNumber(last);
    if (age >= days || (age > 0 && (today + phaseOf(repo.node_id)) % days === 0))
      due.push({ repo, last: age });
  }
  const byId = (a: ContributorCandidate, b: ContributorCandidate) => (a.node_id < b.node_id ? -1 : 1);
  never.sort((a, b) => b.stars - a.stars || byId(a, b));
  due.sort((a, b) => b.last - a.last || b.repo.stars - a.repo.stars || byId(a.repo, b.repo));
  return [...never, ...due.map((d) => d.repo)];
}
