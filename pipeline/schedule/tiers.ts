// Which tracked repositories get the full GitHub details query today, and which only the cheap one.
// The full query (counts of issues, pull requests, watchers, commits over 30/90/365 days, releases, topics)
// costs about 9 points per 100 repositories; the light one (stars, forks, push time, flags, texts) costs 1.
// Tiers by importance: the hottest repositories (by stars) get the full query every day, the next ones every
// few days, the rest once a week. Each repository has a fixed phase (a hash of its node id), so the full
// refreshes of a tier spread evenly over its period instead of falling due on the same night.

/** What the planner knows of a repository from its latest stored row. */
export interface RefreshHistory {
  stars: number;
  /** YYYY-MM-DD of the last full refresh; null when the row was carried forward without one. */
  details_as_of: string | null;
}

export interface RefreshTiers {
  /** Share of tracked repositories, by stars, refreshed in full every day. */
  hotShare: number;
  /** Share after the hot ones refreshed in full every `warmDays`. */
  warmShare: number;
  warmDays: number;
  /** Everything else: in full every `coldDays` (the longest any commit count goes stale). */
  coldDays: number;
}

/** The defaults: ~22% of the tracked set gets the full query on a given night (see docs/collection.md, Collection budget). */
export const DEFAULT_TIERS: RefreshTiers = { hotShare: 0.05, warmShare: 0.2, warmDays: 3, coldDays: 7 };

export type Tier = "hot" | "warm" | "cold" | "new";

export interface RefreshPlan {
  /** Node ids due for the full query today, sorted. */
  full: string[];
  /** Node ids refreshed with the light query and the rest carried forward, sorted. */
  light: string[];
  tiers: Record<Tier, number>;
}

const DAY_MS = 86_400_000;

/** A stable number in [0, 2^32) for a node id (FNV-1a): the repository's phase within its period. */
export function phaseOf(nodeId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < nodeId.length; i++) h = Math.imul(h ^ nodeId.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/**
 * The plan for `runDate`. A repository without history (newly tracked) or never refreshed in full gets the
 * full query. Otherwise its tier's period decides: full on its phase day, or whenever its last full refresh
 * is a period old or older (a night that failed is caught up the next night).
 */
export function planRefresh(
  ids: readonly string[],
  history: ReadonlyMap<string, RefreshHistory>,
  runDate: string,
  tiers: RefreshTiers = DEFAULT_TIERS,
): RefreshPlan {
  const known = ids.filter((id) => history.get(id)?.details_as_of);
  const byStars = [...known].sort(
    (a, b) => (history.get(b)?.stars ?? 0) - (history.get(a)?.stars ?? 0) || (a < b ? -1 : 1),
  );
  const hot = Math.ceil(byStars.length * tiers.hotShare);
  const warm = hot + Math.ceil(byStars.length * tiers.warmShare);
  const rank = new Map(byStars.map((id, i) => [id, i]));
  const today = dayNumber(runDate);
  const full: string[] = [];
  const light: string[] = [];
  const counts: Record<Tier, number> = { hot: 0, warm: 0, cold: 0, new: 0 };
  for (const id of [...ids].sort()) {
    const last = history.get(id)?.details_as_of;
    const position = rank.get(id);
    if (!last || position === undefined) {
      counts.new++;
      full.push(id);
      continue;
    }
    const tier: Tier = position < hot ? "hot" : position < warm ? "warm" : "cold";
    counts[tier]++;
    const period = tier === "hot" ? 1 : tier === "warm" ? tiers.warmDays : tiers.coldDays;
    const due = (today + phaseOf(id)) % period === 0 || today - dayNumber(last) >= period;
    (due ? full : light).push(id);
  }
  return { full, light, tiers: counts };
}
