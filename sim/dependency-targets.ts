// Which earlier package a simulated package depends on: chosen by the depended-on project's popularity,
// shared by the PyPI and npm simulators (each passes its own ascending list of package-owning repositories).

import type { World } from "./world.ts";

/**
 * Weight of a depended-on project: star scale ^ POPULARITY_EXPONENT. Real ecosystems are preferential — a new
 * package is far likelier to depend on numpy, torch or langchain than on a random 30-star package — so a
 * uniform choice left the biggest projects with the same few dependents as everyone (~0 of the score's
 * dependents points). Sub-linear (not ∝ stars) so mid-sized libraries still collect some dependents.
 */
const POPULARITY_EXPONENT = 0.8;

/** Running sums of the weights of an ascending list of repository indices (sums[k] = weights of 0..k). */
export type WeightedTargets = { indices: ArrayLike<number>; sums: Float64Array };

const cache = new WeakMap<World, Map<ArrayLike<number>, WeightedTargets>>();

/** Weighted targets of a list of repository indices, built once per world and list. */
export function weightedTargets(world: World, indices: ArrayLike<number>): WeightedTargets {
  let byList = cache.get(world);
  if (!byList) {
    byList = new Map();
    cache.set(world, byList);
  }
  const found = byList.get(indices);
  if (found) return found;
  const sums = new Float64Array(indices.length);
  let total = 0;
  for (let k = 0; k < indices.length; k++) {
    total += (world.params.popularity[indices[k] as number] as number) ** POPULARITY_EXPONENT;
    sums[k] = total;
  }
  const built = { indices, sums };
  byList.set(indices, built);
  return built;
}

/** How many targets belong to repositories before i (dependencies point backwards, so no cycles). */
export function countBefore(targets: WeightedTargets, i: number): number {
  let low = 0;
  let high = targets.indices.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((targets.indices[mid] as number) < i) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Repository index of the target a unit value u picks among the first `count` targets, by weight. */
export function pickTarget(targets: WeightedTargets, count: number, u: number): number {
  const goal = u * (targets.sums[count - 1] as number);
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((targets.sums[mid] as number) > goal) high = mid;
    else low = mid + 1;
  }
  return targets.indices[low] as number;
}
