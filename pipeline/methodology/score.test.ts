// The score constants: each component's part maxima add up to 25, names are unique, the tiers are ordered, the
// finished floor and the curves in range.
import { describe, expect, it } from "vitest";
import { CONSTANTS } from "../methodology.ts";
import { COMPONENT_MAX, SCORE_COMPONENTS, SCORE_CONSTANTS } from "./score.ts";

describe("score constants", () => {
  it("give every component parts whose maxima (the *_points constants) add up to 25", () => {
    const sums = Object.fromEntries(
      SCORE_COMPONENTS.map((component) => [
        component,
        SCORE_CONSTANTS.filter((c) => c.component === component && c.name.endsWith("_points")).reduce(
          (sum, c) => sum + c.value,
          0,
        ),
      ]),
    );
    expect(sums).toEqual({ maintenance: 25, adoption: 25, maturity: 25, community: 25 });
    expect(COMPONENT_MAX).toBe(25);
  });

  it("name every constant once, with a doc", () => {
    const names = CONSTANTS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(CONSTANTS.filter((c) => c.doc.trim().length < 10).map((c) => c.name)).toEqual([]);
  });

  it("keep the published tiers", () => {
    const tiers = SCORE_CONSTANTS.filter((c) => c.component === "tier").map((c) => [c.name, c.value]);
    expect(tiers).toEqual([
      ["tier_verified_min", 80],
      ["tier_established_min", 60],
      ["tier_emerging_min", 40],
    ]);
  });

  it("keep the finished-project floor within a component and the curves within 1–2", () => {
    const value = (name: string) => SCORE_CONSTANTS.find((c) => c.name === name)?.value;
    expect(value("finished_maintenance_floor")).toBeLessThanOrEqual(COMPONENT_MAX);
    // a curve below 1 would lift small projects above their own log share; far above, it flattens them to 0
    for (const name of ["adoption_curve", "community_curve"]) {
      expect(value(name)).toBeGreaterThanOrEqual(1);
      expect(value(name)).toBeLessThanOrEqual(2);
    }
  });
});
