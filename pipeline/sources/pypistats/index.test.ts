// pypistats: the recorded answer parses and maps to an exact raw_pypi_downloads row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recentSchema, toRows } from "./index.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/pypistats");

describe("pypistats", () => {
  it("maps flask's recorded recent downloads", () => {
    const recent = recentSchema.parse(JSON.parse(readFileSync(path.join(REAL, "recent.flask.json"), "utf8")));
    expect(toRows(recent, { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") })).toEqual([
      {
        run_date: "2026-03-01",
        package: "flask",
        last_day: 6399553,
        last_week: 39375127,
        last_month: 157236987,
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("rejects an answer without counts", () => {
    expect(recentSchema.safeParse({ data: {}, package: "x" }).success).toBe(false);
  });
});
