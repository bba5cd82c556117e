// Closed-form growth curves and time warps. Cumulative quantities (stars, commits) are smooth monotone
// curves evaluated at a warped time; the warp adds day-to-day noise yet keeps every count monotone.

import { hash32, SALT, unit } from "./random.ts";
import { DORMANT, FADING, FINISHED, type RepoParams, RISING, STEADY } from "./repo-params.ts";

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const softplus = (z: number) => (z > 30 ? z : Math.log1p(Math.exp(z)));

/** Continuous star curve t days after creation (before warping and flooring). */
export function starCurve(p: RepoParams, i: number, t: number): number {
  if (t <= 0) return 0;
  const mid = p.starMid[i] as number;
  const width = p.starWidth[i] as number;
  const share = p.starShare[i] as number;
  const s0 = sigmoid(-mid / width);
  const logistic = (sigmoid((t - mid) / width) - s0) / (1 - s0);
  return (p.popularity[i] as number) * (share * logistic + ((1 - share) * t) / (p.ageRef[i] as number));
}

/** Continuous cumulative commits t days after creation; activity stops at actStop (dormancy, archiving). */
export function commitCurve(p: RepoParams, i: number, t: number): number {
  const stop = (p.actStop[i] as number) - (p.created[i] as number);
  const x = Math.min(t, stop);
  if (x <= 0) return 0;
  const a = p.actRate[i] as number;
  const tau = p.actTau[i] as number;
  switch (p.kind[i]) {
    case RISING: {
      const mid = p.actMid[i] as number;
      return a * tau * (softplus((x - mid) / tau) - softplus(-mid / tau));
    }
    case FADING:
      return a * tau * (1 - Math.exp(-x / tau)) + 0.03 * a * x;
    case FINISHED:
      return a * tau * (1 - Math.exp(-x / tau)) + 0.01 * a * x;
    case STEADY:
    case DORMANT:
      return a * x;
    default:
      return 0;
  }
}

/** Daily warp for stars: knots at day boundaries shifted by up to 0.9 day, linear in between. */
export function starTime(seed: number, i: number, instant: number): number {
  const day = Math.floor(instant);
  const k0 = day + 0.9 * unit(seed, i, SALT.starWarp, day);
  const k1 = day + 1 + 0.9 * unit(seed, i, SALT.starWarp, day + 1);
  return k0 + (instant - day) * (k1 - k0);
}

/** Weekly warp for commits: each week's work lands on a few busy days, weekends are quieter. */
export function commitTime(seed: number, i: number, instant: number): number {
  const day = Math.floor(instant);
  const weekStart = day - (((day % 7) + 7) % 7);
  // One hash per week: seven 4-bit draws, cubed so most days are quiet and a few are busy.
  const bits = hash32(seed, i, SALT.commitWarp, weekStart);
  const weekdayOfStart = (weekStart + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const offset = day - weekStart;
  let total = 0;
  let before = 0;
  let today = 0;
  for (let j = 0; j < 7; j++) {
    const draw = ((bits >>> (4 * j)) & 15) / 15;
    const weekday = (weekdayOfStart + j) % 7;
    const weight = (0.05 + draw * draw * draw) * (weekday === 0 || weekday === 6 ? 0.35 : 1);
    if (j < offset) before += weight;
    else if (j === offset) today = weight;
    total += weight;
  }
  return weekStart + (7 * (before + (instant - day) * today)) / total;
}

/**
 * Smallest instant in [low, high] at which a monotone non-decreasing count reaches `target`, to the second.
 * Gallops from the end where the answer is expected (recent events: "high"; early ones: "low"), so the
 * usual questions (last commit, latest release, newest stargazers) cost a handful of evaluations.
 * Assumes count(high) >= target; returns `high` when the target is only reached there.
 */
export function firstInstantReaching(
  count: (instant: number) => number,
  target: number,
  low: number,
  high: number,
  near: "low" | "high" = "high",
): number {
  if (count(low) >= target) return low;
  let lo = low;
  let hi = high;
  if (near === "high") {
    for (let step = 1; high - step > low; step *= 2) {
      if (count(high - step) < target) {
        lo = high - step;
        break;
      }
      hi = high - step;
    }
  } else {
    for (let step = 1; low + step < high; step *= 2) {
      if (count(low + step) >= target) {
        hi = low + step;
        break;
      }
      lo = low + step;
    }
  }
  while (hi - lo > 1 / 86_400) {
    const mid = (lo + hi) / 2;
    if (count(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}
