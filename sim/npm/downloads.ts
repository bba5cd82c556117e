// npm download counts: a daily series driven by the repository's star curve (more downloads per star than
// PyPI, weekday seasonality, per-day noise), zero before the first publish. Days are whole UTC days.
import { SALT, unit } from "../random.ts";
import { starCurve } from "../trajectory.ts";
import type { World } from "../world.ts";
import { npmFirstPublish } from "./packument.ts";

export function npmDailyDownloads(world: World, i: number, day: number): number {
  if (day + 1 <= npmFirstPublish(world, i)) return 0;
  const p = world.params;
  const t = day + 0.5 - (p.created[i] as number);
  const weekday = (day + 4) % 7;
  const season = weekday === 0 || weekday === 6 ? 0.55 : 1;
  const noise = 0.8 + 0.4 * unit(world.seed, i, SALT.npm, 1000 + day);
  return Math.round((p.downloadsPerStar[i] as number) * 3 * starCurve(p, i, t) * season * noise + 3);
}

export function npmDownloadsBetween(world: World, i: number, first: number, last: number): number {
  let sum = 0;
  for (let day = first; day <= last; day++) sum += npmDailyDownloads(world, i, day);
  return sum;
}
