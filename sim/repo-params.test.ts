// The licence a repository carries, by its star scale: the rule of licenseIndex on its own, then the share without a
// licence among the small and the popular repositories of a 5,000-repository world (exact counts for its seed).
import { describe, expect, it } from "vitest";
import { licenseIndex } from "./repo-params.ts";
import { createWorld } from "./world.ts";

describe("licenseIndex", () => {
  it("leaves 12% of small repositories without a licence and 1.5% from 2,000 stars, falling in between", () => {
    expect(licenseIndex(0.879, 100)).not.toBe(-1);
    expect(licenseIndex(0.881, 100)).toBe(-1);
    expect(licenseIndex(0.881, 300)).toBe(-1);
    expect(licenseIndex(0.984, 2_000)).not.toBe(-1);
    expect(licenseIndex(0.986, 2_000)).toBe(-1);
    expect(licenseIndex(0.984, 300_000)).not.toBe(-1);
    // halfway between 300 and 2,000 stars on the log scale, halfway between 12% and 1.5%: 6.75%
    const middle = Math.sqrt(300 * 2_000);
    expect(licenseIndex(0.932, middle)).not.toBe(-1);
    expect(licenseIndex(0.933, middle)).toBe(-1);
  });

  it("gives a roll that is licensed when small the same licence at every scale", () => {
    for (const roll of [0, 0.2, 0.4, 0.5, 0.7, 0.8, 0.87]) {
      expect(licenseIndex(roll, 50_000)).toBe(licenseIndex(roll, 10));
    }
  });
});

describe("the repositories of a world without a licence", () => {
  const world = createWorld({ repos: 5000, seed: 3, anchor: "2026-11-01" });
  const share = (from: number, to: number) => {
    let all = 0;
    let none = 0;
    for (let i = 0; i < world.size; i++) {
      const scale = world.params.popularity[i] as number;
      if (scale < from || scale >= to) continue;
      all++;
      if (world.params.license[i] === -1) none++;
    }
    return [none, all];
  };

  // at one 12% chance for every scale 90 of the 637 past 1,000 stars had none (14%); the real list has 1.0%
  it("are 459 of the 3,738 under 300 stars (12.3%) and 11 of the 637 past 1,000 (1.7%)", () => {
    expect(share(0, 300)).toEqual([459, 3738]);
    expect(share(1_000, Infinity)).toEqual([11, 637]);
  });
});
