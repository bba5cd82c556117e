// Stateless, seeded hashing: every simulated value is a pure function of (seed, repo index, salt, day),
// so any repository can be asked about any date in O(1) without replaying history.

/** A strong 32-bit integer finaliser (lowbias32); returns an unsigned 32-bit integer. */
export function mix32(value: number): number {
  let x = value | 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Hash of up to four integers under a seed, as an unsigned 32-bit integer. */
export function hash32(seed: number, a: number, b = 0, c = 0): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h + Math.imul(a | 0, 0x85ebca6b));
  h = mix32(h + Math.imul(b | 0, 0xc2b2ae35));
  return mix32(h + Math.imul(c | 0, 0x27d4eb2f));
}

/** Hash of up to four integers mapped to [0, 1). */
export function unit(seed: number, a: number, b = 0, c = 0): number {
  return hash32(seed, a, b, c) / 4_294_967_296;
}

/** Uniform value in [low, high). */
export function between(u: number, low: number, high: number): number {
  return low + u * (high - low);
}

/** Index into a list of `size` items from a unit value. */
export function pickIndex(u: number, size: number): number {
  return Math.min(size - 1, Math.floor(u * size));
}

/** Index chosen by weights (not necessarily normalised). */
export function pickWeighted(u: number, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let target = u * total;
  for (let i = 0; i < weights.length; i++) {
    target -= weights[i] as number;
    if (target < 0) return i;
  }
  return weights.length - 1;
}

/** Standard normal deviate from two unit values (Box–Muller). */
export function normal(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(Math.max(u1, 1e-12))) * Math.cos(2 * Math.PI * u2);
}

/** Pareto deviate: heavy tail with minimum `min` and shape `alpha`. */
export function pareto(u: number, min: number, alpha: number): number {
  return min * (1 - u) ** (-1 / alpha);
}

const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, "0"),
);

/** Deterministic lower-case hex string of `length` characters derived from the inputs. */
export function hexDigest(seed: number, a: number, b: number, length: number): string {
  let out = "";
  for (let block = 1; out.length < length; block++) {
    const h = hash32(seed, a, b, block);
    out +=
      (HEX_BYTES[h >>> 24] as string) +
      HEX_BYTES[(h >>> 16) & 255] +
      HEX_BYTES[(h >>> 8) & 255] +
      HEX_BYTES[h & 255];
  }
  return out.length === length ? out : out.slice(0, length);
}

/** Salts: one per independent random quantity, so adding a new one never shifts the others. */
export const SALT = {
  created: 1,
  kind: 2,
  popularity: 3,
  starShape: 4,
  activity: 5,
  activityShape: 6,
  owner: 7,
  name: 8,
  language: 9,
  license: 10,
  domain: 11,
  topics: 12,
  flags: 13,
  archive: 14,
  ratios: 15,
  releases: 16,
  pypi: 17,
  downloads: 18,
  homepage: 19,
  description: 20,
  starWarp: 21,
  commitWarp: 22,
  starDrop: 23,
  versions: 24,
  stargazer: 25,
  time: 26,
  files: 27,
  deps: 28,
  branch: 29,
  empty: 30,
  rename: 31,
  delete: 32,
  contributors: 33,
  issues: 34,
  npm: 35,
  docker: 36,
  hf: 37,
  hn: 38,
  arxiv: 39,
  faults: 40,
} as const;
