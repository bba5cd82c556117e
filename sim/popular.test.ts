// Popular projects behave like popular projects: the rules of popular.ts on their own, then their effect on the
// most-starred repositories of a 3,000-repository world (exact counts, so a change to the world shows here).
import { describe, expect, it } from "vitest";
import { parseDay } from "./dates.ts";
import { DORMANT, FADING, FINISHED, RISING, STEADY } from "./kinds.ts";
import { commits, releaseCount, stars } from "./metrics.ts";
import { commitsPerRelease, popularKind, taggedChance } from "./popular.ts";
import { createWorld } from "./world.ts";

describe("popularKind", () => {
  it("leaves small, finished and already active repositories as drawn", () => {
    expect(popularKind(DORMANT, 1_000, 0)).toBe(DORMANT);
    expect(popularKind(FINISHED, 300_000, 0)).toBe(FINISHED);
    expect(popularKind(RISING, 300_000, 0)).toBe(RISING);
  });

  it("keeps a big dormant or fading one steady with a chance of 0.6 per decade past 1,000 stars, at most 0.9", () => {
    expect(popularKind(DORMANT, 10_000, 0.59)).toBe(STEADY);
    expect(popularKind(DORMANT, 10_000, 0.61)).toBe(DORMANT);
    expect(popularKind(FADING, 100_000, 0.89)).toBe(STEADY);
    expect(popularKind(FADING, 100_000, 0.91)).toBe(FADING);
  });
});

describe("release cadence", () => {
  it("makes a steady or rising repository past 5,000 stars tag releases and cut one every 7 to 30 days", () => {
    expect(taggedChance(0.5, STEADY, 5_001)).toBe(0.9);
    expect(taggedChance(0.5, FADING, 50_000)).toBe(0.5);
    expect(taggedChance(0.5, STEADY, 5_000)).toBe(0.5);
    expect(commitsPerRelease(150, RISING, 20_000, 2, 0)).toBe(14);
    expect(commitsPerRelease(150, STEADY, 20_000, 2, 1)).toBe(60);
    expect(commitsPerRelease(40, STEADY, 20_000, 2, 1)).toBe(40);
    expect(commitsPerRelease(150, DORMANT, 20_000, 2, 0)).toBe(150);
    expect(commitsPerRelease(150, STEADY, 20_000, 0.01, 0)).toBe(1);
  });
});

describe("the most-starred repositories of a world", () => {
  const world = createWorld({ repos: 3000, seed: 42, anchor: "2026-11-01" });
  const now = (parseDay("2026-11-25") as number) + 0.5;
  const top = Array.from({ length: world.size }, (_, i) => i)
    .filter((i) => (world.params.created[i] as number) < now)
    .sort((a, b) => stars(world, b, now) - stars(world, a, now))
    .slice(0, 40);

  it("are mostly active: 2 of the 40 without a commit in 90 days, 34 with a release in 90 days", () => {
    expect(top.filter((i) => commits(world, i, now) === commits(world, i, now - 90)).length).toBe(2);
    expect(top.filter((i) => releaseCount(world, i, now) > releaseCount(world, i, now - 90)).length).toBe(34);
  });
});
