// requires_dist of a simulated PyPI project: a few other projects of the same world (never real ones).

import { SALT, unit } from "../random.ts";
import { FLAG_PYPI } from "../repo-params.ts";
import type { World } from "../world.ts";

const MAX_DEPENDENCIES = 5;

/** Up to five earlier projects of the world, or null (as PyPI reports projects without metadata). */
export function dependenciesOf(world: World, i: number): string[] | null {
  const u = (k: number) => unit(world.seed, i, SALT.deps, k);
  if (u(0) < 0.15 || i === 0) return null;
  const count = Math.floor(u(1) * (MAX_DEPENDENCIES + 1));
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let j = Math.floor(u(10 + k) * i);
    for (let step = 0; step < 50 && j >= 0 && !((world.params.flags[j] as number) & FLAG_PYPI); step++) j--;
    const name = j >= 0 ? world.pypiName(j) : undefined;
    if (!name || out.some((dep) => dep.startsWith(`${name}>`))) continue;
    const bound = `${name}>=0.${1 + Math.floor(u(20 + k) * 9)}`;
    out.push(k === count - 1 && u(30) < 0.3 ? `${bound}; extra == "dev"` : bound);
  }
  return out;
}
