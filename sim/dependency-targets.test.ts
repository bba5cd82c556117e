// Dependencies follow popularity: the weighted pick on its own, then the PyPI and npm dependencies of a
// 3,000-repository world (exact counts, so a change to the world shows here).
import { describe, expect, it } from "vitest";
import { parseDay } from "./dates.ts";
import { countBefore, pickTarget, weightedTargets } from "./dependency-targets.ts";
import { linksOf } from "./links.ts";
import { packument } from "./npm/packument.ts";
import { dependenciesOf } from "./pypi/dependencies.ts";
import { createWorld } from "./world.ts";

describe("pickTarget", () => {
  // repositories 2, 5 and 9 weighing 1, 3 and 6
  const targets = { indices: [2, 5, 9], sums: Float64Array.from([1, 4, 10]) };

  it("counts the targets of earlier repositories only", () => {
    expect([0, 2, 3, 5, 6, 9, 10].map((i) => countBefore(targets, i))).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });

  it("picks each target with a chance proportional to its weight, among the first `count`", () => {
    expect([0, 0.09, 0.1, 0.39, 0.4, 0.99].map((u) => pickTarget(targets, 3, u))).toEqual([2, 2, 5, 5, 9, 9]);
    expect([0.24, 0.25, 0.99].map((u) => pickTarget(targets, 2, u))).toEqual([2, 5, 5]);
  });
});

describe("the dependencies of a world", () => {
  const world = createWorld({ repos: 3000, seed: 42, anchor: "2026-11-01" });

  it("weighs a repository by its star scale ^ 0.8", () => {
    const targets = weightedTargets(world, [0, 1]);
    const first = (world.params.popularity[0] as number) ** 0.8;
    expect(targets.sums[0]).toBeCloseTo(first, 9);
    expect(weightedTargets(world, targets.indices)).toBe(targets);
  });

  it("sends PyPI projects' dependencies to the popular ones, about 2.3 per project as a uniform choice did", () => {
    const pypiIndex = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const name = world.pypiName(i);
      if (name) pypiIndex.set(name, i);
    }
    const dependents = new Map<number, number>();
    let total = 0;
    for (const i of pypiIndex.values()) {
      for (const dep of dependenciesOf(world, i) ?? []) {
        const j = pypiIndex.get(dep.split(">")[0] as string) as number;
        dependents.set(j, (dependents.get(j) ?? 0) + 1);
        total++;
      }
    }
    expect([pypiIndex.size, total, dependents.size]).toEqual([513, 1157, 213]);
    const top = [...dependents].sort((a, b) => b[1] - a[1]).slice(0, 3);
    expect(
      top.map(([j, n]) => [world.pypiName(j), Math.round(world.params.popularity[j] as number), n]),
    ).toEqual([
      ["dipax-synth", 101_163, 65],
      ["gozuk", 44_753, 62],
      ["pymizuk-vl", 7_778, 42],
    ]);
  });

  it("does the same for npm packages", () => {
    const links = linksOf(world);
    const now = (parseDay("2026-11-25") as number) + 0.5;
    const dependents = new Map<string, number>();
    let total = 0;
    let published = 0;
    for (const i of links.npmIndices) {
      const document = packument(world, i, now);
      // a package of a repository created after `now` is not published yet
      const latest = document.versions[document["dist-tags"].latest] as { dependencies: object } | undefined;
      if (latest) published++;
      for (const name of Object.keys(latest?.dependencies ?? {})) {
        dependents.set(name, (dependents.get(name) ?? 0) + 1);
        total++;
      }
    }
    expect([links.npmIndices.length, published, total]).toEqual([100, 98, 189]);
    expect([...dependents].sort((a, b) => b[1] - a[1]).slice(0, 3)).toEqual([
      ["musunvoice", 26],
      ["lazun", 20],
      ["dapan-paint", 16],
    ]);
  });
});
