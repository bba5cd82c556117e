// The score diff on a hand-made pair of rate outputs: which projects move tier, their components before and after,
// the moves counted, the median score change, projects on one side only, and a previous output that is not one.
import { describe, expect, it } from "vitest";
import { diffRatings, formatDiff, parseRatings } from "./rate-diff.ts";

const line = (name: string, tier: string, score: number, m: number, a: number, t: number, c: number) =>
  JSON.stringify({
    full_name: name,
    quality_score: score,
    quality_tier: tier,
    maintenance_score: m,
    adoption_score: a,
    maturity_score: t,
    community_score: c,
    domain: "ml-frameworks",
  });

const BEFORE = [
  line("acme/flagship", "verified", 82, 22, 20, 20, 20),
  line("acme/steady", "established", 70, 18, 17, 18, 17),
  line("acme/dormant", "emerging", 45, 10, 12, 13, 10),
  line("acme/gone", "emerging", 41, 5, 12, 12, 12),
  line("acme/steady", "established", 70, 18, 17, 18, 17),
].join("\n");
const AFTER = [
  line("acme/flagship", "established", 78, 20, 18, 20, 20),
  line("acme/steady", "established", 71, 18, 18, 18, 17),
  line("ACME/dormant", "experimental", 30, 0, 12, 10, 8),
  line("acme/new", "emerging", 50, 12, 12, 13, 13),
].join("\n");

describe("diffRatings", () => {
  it("lists the tier moves with components before→after and sums them up", () => {
    const diff = diffRatings(parseRatings(BEFORE, "old.jsonl"), parseRatings(AFTER, "new.jsonl"));
    expect(diff).toMatchObject({
      compared: 3,
      tier_changed: 2,
      score_changed: 3,
      // -4, +1, -15
      median_score_change: -4,
      moves: { "verified→established": 1, "emerging→experimental": 1 },
      added: ["acme/new"],
      removed: ["acme/gone"],
    });
    const text = formatDiff(diff, "old.jsonl");
    expect(text.rows).toEqual([
      ["acme/flagship", "verified→established", "82→78", "22→20", "20→18", "20→20", "20→20"],
      ["ACME/dormant", "emerging→experimental", "45→30", "10→0", "12→12", "13→10", "10→8"],
    ]);
    expect(text.summary).toEqual([
      "2 of 3 projects change tier against old.jsonl; 3 change score, median change -4",
      "  verified→established: 1",
      "  emerging→experimental: 1",
      "rated now, not in old.jsonl: acme/new",
      "in old.jsonl, not rated now: acme/gone",
    ]);
  });

  it("halves the two middle changes of an even count", () => {
    const two = [
      line("a/b", "emerging", 40, 10, 10, 10, 10),
      line("c/d", "emerging", 40, 10, 10, 10, 10),
    ].join("\n");
    const moved = [
      line("a/b", "emerging", 43, 10, 10, 10, 10),
      line("c/d", "emerging", 40, 10, 10, 10, 10),
    ].join("\n");
    expect(diffRatings(parseRatings(two, "a"), parseRatings(moved, "b")).median_score_change).toBe(1.5);
  });
});

describe("parseRatings", () => {
  it("names the line of a previous output that is not a rating", () => {
    expect(() =>
      parseRatings(`${line("a/b", "emerging", 40, 10, 10, 10, 10)}\n{"full_name":"c/d"}\n`, "old.jsonl"),
    ).toThrow(
      "old.jsonl line 2 is not a rating: it lacks or mistypes quality_score, quality_tier, maintenance_score, adoption_score, maturity_score, community_score.",
    );
    expect(() => parseRatings("full_name,score\n", "old.csv")).toThrow(/^old\.csv line 1 is not JSON/);
  });
});
