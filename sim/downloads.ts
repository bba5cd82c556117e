// PyPI download counts: a daily series driven by popularity, with weekday seasonality and per-day noise;
// pypistats' "recent" numbers are sums over the last 1, 7 and 30 full days before the sim date.
import { releaseCount } from "./metrics.ts";
import { between, SALT, unit } from "./random.ts";
import { starCurve } from "./trajectory.ts";
import type { World } from "./world.ts";

/** Downloads of a repository's PyPI project during one whole day (0 before its first upload). */
export function dailyDownloads(world: World, i: number, day: number): number {
  if (releaseCount(world, i, day + 1) < 1) return 0;
  const p = world.params;
  const t = day + 0.5 - (p.created[i] as number);
  const weekday = (day + 4) % 7;
  const season = weekday === 0 || weekday === 6 ? 0.7 : 1;
  const noise = 0.75 + 0.5 * unit(world.seed, i, SALT.downloads, day);
  const mirrors = between(unit(world.seed, i, SALT.downloads, 7), 2, 25);
  return Math.round((p.downloadsPerStar[i] as number) * starCurve(p, i, t) * season * noise + mirrors);
}

export interface RecentDownloads {
  last_day: number;
  last_week: number;
  last_month: number;
}

/** pypistats' recent downloads as of the sim date `today` (the day itself is not complete yet). */
export function recentDownloads(world: World, i: number, today: number): RecentDownloads {
  let lastWeek = 0;
  let lastMonth = 0;
  for (let back = 1; back <= 30; back++) {
    const value = dailyDownloads(world, i, today - back);
    lastMonth += value;
    if (back <= 7) lastWeek += value;
  }
  return { last_day: dailyDownloads(world, i, today - 1), last_week: lastWeek, last_month: lastMonth };
}
