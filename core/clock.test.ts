// Dates: strict YYYY-MM-DD parsing and the UTC midnight quotas reset at.
import { describe, expect, it } from "vitest";
import { addDays, isoDay, nextUtcMidnight, parseIsoDay } from "./clock.ts";

describe("clock helpers", () => {
  it("parses only real calendar days", () => {
    expect(parseIsoDay("2026-02-28")?.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(parseIsoDay("2026-02-31")).toBeUndefined();
    expect(parseIsoDay("2026-2-1")).toBeUndefined();
    expect(parseIsoDay("yesterday")).toBeUndefined();
  });

  it("finds the next midnight UTC", () => {
    expect(nextUtcMidnight(new Date("2026-11-22T23:59:59.999Z")).toISOString()).toBe(
      "2026-11-23T00:00:00.000Z",
    );
    expect(nextUtcMidnight(new Date("2026-12-31T00:00:00.000Z")).toISOString()).toBe(
      "2027-01-01T00:00:00.000Z",
    );
  });

  it("adds days and formats them", () => {
    expect(isoDay(addDays(new Date("2026-11-30T12:00:00Z"), 1))).toBe("2026-12-01");
  });
});
