// Which repositories get their contributor count asked tonight apart from the full REST activity (which costs
// up to 11 requests a repository and so reaches few): one request each, so every tracked repository with at
// least CONTRIBUTOR_MIN_STARS stars is counted within a week. Never-counted ones come first, then the oldest
// counts; once counted, a repository comes back on its phase day (a hash of its node id mod the rotation), so
// the weekly refresh spreads evenly over the nights instead of repeating the first night's burst.
import { phaseOf } from "./tiers.ts";

/** Repositories below this many stars are left to the full activity (their count matters less, and costs as much). */
export const CONTRIBUTOR_MIN_STARS = 100;
/** Nights within which every such repository's count is asked again, when the budget allows. */
export const CONTRIBUTOR_ROTATION_DAYS = 7;
/**
 * The freshness kept whatever else wants the budget: at 220,000 repositories (73,929 with 100+ stars, about 24,600
 * a shard and token) a weekly round is past a token's REST budget, so the rotation claims at least enough a night
 * (contributorFloor) that every such repository's count is at most this many days old.
 */
export const CONTRIBUTOR_MAX_AGE_DAYS = 14;

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

/**
 * Requests a night the rotation claims at least, before the activity: every repository with 100+ stars comes back
 * within CONTRIBUTOR_MAX_AGE_DAYS - 1 nights, a night's margin for counts a fault or the budget put off.
 */
export function contributorFloor(repos: readonly ContributorCandidate[]): number {
  const eligible = repos.filter((r) => r.stars >= CONTRIBUTOR_MIN_STARS).length;
  return Math.ceil(eligible / (CONTRIBUTOR_MAX_AGE_DAYS - 1));
}

export interface RotationRun {
  /** Counts asked each night (the plan, cut at the night's requests). */
  requests: number[];
  /** Share of the repositories with 100+ stars whose count is at most CONTRIBUTOR_MAX_AGE_DAYS old, each night. */
  fresh: number[];
}

/**
 * The rotation night after night from none counted, `perNight` requests a night, every repository a candidate
 * each night (the light query refreshes every tracked one): the steady state it reaches, for the bench's coverage
 * figure and the test that contributorFloor keeps 95% fresh at 220,000 repositories.
 */
export function simulateRotation(
  repos: readonly ContributorCandidate[],
  perNight: number,
  nights: number,
  firstNight: string,
): RotationRun {
  const last = new Map<string, string>();
  const eligible = repos.filter((r) => r.stars >= CONTRIBUTOR_MIN_STARS);
  const run: RotationRun = { requests: [], fresh: [] };
  for (let night = 0; night < nights; night++) {
    const today = dayNumber(firstNight) + night;
    const day = new Date(today * DAY_MS).toISOString().slice(0, 10);
    const asked = planContributors(repos, last, day).slice(0, perNight);
    for (const repo of asked) last.set(repo.node_id, day);
    const fresh = eligible.filter((r) => {
      const counted = last.get(r.node_id);
      return counted !== undefined && today - dayNumber(counted) <= CONTRIBUTOR_MAX_AGE_DAYS;
    }).length;
    run.requests.push(asked.length);
    run.fresh.push(eligible.length === 0 ? 1 : fresh / eligible.length);
  }
  return run;
}
