// requires_dist of a simulated PyPI project: a few other projects of the same world (never real ones),
// chosen by popularity (sim/dependency-targets.ts) as real projects depend on numpy and torch, not at random.

import { countBefore, pickTarget, weightedTargets } from "../dependency-targets.ts";
import { SALT, unit } from "../random.ts";
import { FLAG_PYPI } from "../repo-params.ts";
import type { World } from "../world.ts";

const MAX_DEPENDENCIES = 5;
/** Draws per dependency: a popular project picked twice is drawn again, so counts stay near uniform's. */
const DRAWS_PER_DEPENDENCY = 3;

const pypiIndices = new WeakMap<World, Int32Array>();

/** Ascending indices of the world's repositories with a PyPI project. */
function pypiIndicesOf(world: World): Int32Array {
  let found = pypiIndices.get(world);
  if (!found) {
    const out: number[] = [];
    for (let j = 0; j < world.params.flags.length; j++) {
      if ((world.params.flags[j] as number) & FLAG_PYPI && world.pypiName(j)) out.push(j);
    }
    found = Int32Array.from(out);
    pypiIndices.set(world, found);
  }
  return found;
}

/** Up to five projects of earlier repositories, or null (as PyPI reports projects without metadata). */
export function dependenciesOf(world: World, i: number): string[] | null {
  const u = (k: number) => unit(world.seed, i, SALT.deps, k);
  if (u(0) < 0.15 || i === 0) return null;
  const count = Math.floor(u(1) * (MAX_DEPENDENCIES + 1));
  const targets = weightedTargets(world, pypiIndicesOf(world));
  const earlier = countBefore(targets, i);
  const out: string[] = [];
  for (let k = 0; k < count && earlier > 0; k++) {
    let name: string | undefined;
    for (let draw = 0; draw < DRAWS_PER_DEPENDENCY && !name; draw++) {
      const candidate = world.pypiName(pickTarget(targets, earlier, u(10 + k + 40 * draw)));
      if (candidate && !out.some((dep) => dep.startsWith(`${candidate}>`))) name = candidate;
    }
    if (!name) continue;
    const bound = `${name}>=0.${1 + Math.floor(u(20 + k) * 9)}`;
    out.push(k === count - 1 && u(30) < 0.3 ? `${bound}; extra == "dev"` : bound);
  }
  return out;
}
