// The world is a pure function of (seed, size, anchor): same inputs, same repositories; names are unique.
import { describe, expect, it } from "vitest";
import { parseDay } from "./dates.ts";
import { linksOf } from "./links.ts";
import * as metrics from "./metrics.ts";
import { normalisePypiName } from "./names.ts";
import { FLAG_PYPI } from "./repo-params.ts";
import { descriptionOf, topicNames } from "./repo-text.ts";
import { snapshotRepo } from "./snapshot.ts";
import { createWorld, type World } from "./world.ts";

const ANCHOR = "2026-01-15";
const NOW = parseDay(ANCHOR) as number;

function fingerprint(world: World, i: number): string {
  return JSON.stringify([
    world.fullName(i),
    world.nodeId(i),
    world.pypiName(i),
    descriptionOf(world, i),
    topicNames(world, i),
    metrics.stars(world, i, NOW),
    metrics.commits(world, i, NOW),
    metrics.issueCounts(world, i, NOW),
    metrics.releaseCount(world, i, NOW),
  ]);
}

describe("createWorld", () => {
  const world = createWorld({ repos: 3000, seed: 1, anchor: ANCHOR });

  it("builds the same world for the same seed and size", () => {
    const again = createWorld({ repos: 3000, seed: 1, anchor: ANCHOR });
    for (let i = 0; i < world.size; i += 37) expect(fingerprint(again, i)).toBe(fingerprint(world, i));
    expect(world.fullName(0)).toBe("tigasrahq/nimergen");
    expect(world.nodeId(0)).toBe("R_kgDOBo53hQ");
  });

  it("builds a different world for another seed", () => {
    const other = createWorld({ repos: 3000, seed: 2, anchor: ANCHOR });
    let same = 0;
    for (let i = 0; i < world.size; i += 37) if (fingerprint(other, i) === fingerprint(world, i)) same++;
    expect(same).toBe(0);
  });

  it("gives every repository a unique owner/name and every PyPI project a unique normalised name", () => {
    const names = new Set<string>();
    const projects = new Set<string>();
    for (let i = 0; i < world.size; i++) {
      names.add(world.fullName(i).toLowerCase());
      const project = world.pypiName(i);
      if (project) projects.add(normalisePypiName(project));
    }
    expect(names.size).toBe(world.size);
    let flagged = 0;
    for (let i = 0; i < world.size; i++) if ((world.params.flags[i] as number) & FLAG_PYPI) flagged++;
    expect(projects.size).toBe(flagged);
  });

  it("finds repositories by name case-insensitively, PyPI projects by normalised name, repos by node id", () => {
    const [owner, name] = world.fullName(42).split("/") as [string, string];
    expect(world.findRepo(owner.toUpperCase(), name.toUpperCase())).toBe(42);
    expect(world.findRepo(owner, `${name}-nope`)).toBeUndefined();
    const index = Array.from({ length: world.size }, (_, i) => i).find((i) => world.pypiName(i)) as number;
    const project = world.pypiName(index) as string;
    expect(world.findPypi(project.toUpperCase().replace(/-/g, "_"))).toBe(index);
    expect(world.findNodeId(world.nodeId(2999))).toBe(2999);
    expect(world.findNodeId("R_kgDOAAAAAQ")).toBeUndefined();
    expect(world.findNodeId("MDEwOlJlcG9zaXRvcnkx")).toBeUndefined();
  });

  it("spreads creation over ~8 years before the anchor, with a few repositories still to come", () => {
    let old = 0;
    let future = 0;
    for (let i = 0; i < world.size; i++) {
      const created = world.params.created[i] as number;
      if (created < NOW - 7 * 365) old++;
      if (created > NOW) future++;
    }
    expect(old).toBe(223);
    expect(future).toBe(74);
  });

  it("has GitHub's heavy-tailed stars, forks about 0.14 of stars, and a package for about 20% of repositories", () => {
    const big = createWorld({ repos: 20_000, seed: 5, anchor: ANCHOR });
    const links = linksOf(big);
    const live = Array.from({ length: big.size }, (_, i) => i).filter((i) => metrics.exists(big, i, NOW));
    const stars = live.map((i) => metrics.stars(big, i, NOW)).sort((a, b) => a - b);
    let forks = 0;
    let forkedStars = 0;
    for (const i of live.filter((j) => metrics.stars(big, j, NOW) >= 1000)) {
      forks += metrics.forks(big, i, NOW);
      forkedStars += metrics.stars(big, i, NOW);
    }
    expect({
      live: live.length,
      median: stars[stars.length >> 1],
      p90: stars[Math.floor(stars.length * 0.9)],
      under100: stars.filter((n) => n < 100).length,
      over50k: stars.filter((n) => n >= 50_000).length,
      over100k: stars.filter((n) => n >= 100_000).length,
      packaged: live.filter((i) => big.pypiName(i) || links.npmName(i)).length,
      forksPerStar: Math.round((forks / forkedStars) * 100) / 100,
    }).toEqual({
      live: 19_486,
      median: 39,
      p90: 1073,
      under100: 12_481,
      over50k: 50,
      over100k: 23,
      packaged: 3918,
      forksPerStar: 0.14,
    });
  });

  it("writes descriptions without template seams: varied openings, articles that agree, no doubled words", () => {
    const texts = Array.from({ length: world.size }, (_, i) => descriptionOf(world, i)).filter(
      (text): text is string => text !== null,
    );
    const openings = new Set(texts.map((text) => text.split(" ")[0]));
    expect(openings.size).toBeGreaterThan(150);
    expect(new Set(texts).size / texts.length).toBeGreaterThan(0.5);
    expect(texts.filter((text) => /\b(\w+) \1\b/i.test(text))).toEqual([]);
    const disagreeing = /\b[Aa] (LLM|MCP|SDK|OCR|[aeio][a-z])|\b[Aa]n ([b-df-hj-np-tv-z][a-z]|RAG)/;
    expect(texts.filter((text) => disagreeing.test(text))).toEqual([]);
    expect(texts.filter((text) => !/^[A-Z0-9\u{1F300}-\u{1FAFF}\u26A1\u2728]/u.test(text))).toEqual([]);
  });
});

describe("snapshotRepo", () => {
  it("reports the ground truth of a repository on a date", () => {
    const world = createWorld({ repos: 3000, seed: 1, anchor: ANCHOR });
    const snapshot = snapshotRepo(world, 100, ANCHOR);
    expect(snapshot).toMatchObject({
      index: 100,
      fullName: world.fullName(100),
      exists: true,
      stars: 15,
      commits: 258,
    });
    expect(snapshotRepo(world, 2999, ANCHOR).exists).toBe(false);
  });
});

describe("renames and deletions", () => {
  it("resolves a former name after the rename day and the new one only from then on", () => {
    const world = createWorld({
      repos: 500,
      seed: 21,
      anchor: "2026-01-01",
      renameShare: 0.1,
      deleteShare: 0.1,
    });
    const i = [...Array(world.size).keys()].find(
      (j) => world.renameDay(j) < Number.POSITIVE_INFINITY,
    ) as number;
    const day = world.renameDay(i);
    const [owner, name] = world.fullName(i).split("/") as [string, string];
    const newName = world.repoNameAt(i, day);
    expect(newName).not.toBe(name);
    expect(world.resolveRepo(owner, name, day - 1)).toEqual({ index: i, renamed: false });
    expect(world.resolveRepo(owner, name, day)).toEqual({ index: i, renamed: true });
    expect(world.resolveRepo(owner, newName, day - 1)).toBeUndefined();
    expect(world.resolveRepo(owner.toUpperCase(), newName, day)).toEqual({ index: i, renamed: false });
    expect(world.fullNameAt(i, day)).toBe(`${owner}/${newName}`);
    const renamed = [...Array(world.size).keys()].filter(
      (j) => world.renameDay(j) < Number.POSITIVE_INFINITY,
    ).length;
    const deleted = [...Array(world.size).keys()].filter(
      (j) => world.deleteDay(j) < Number.POSITIVE_INFINITY,
    ).length;
    expect([renamed > 25 && renamed < 80, deleted > 25 && deleted < 80]).toEqual([true, true]);
  });
});
