// What `projintel rate` says about a file before rating it: the day it rates as of (the flag, the file's name, its
// updated_at, its latest date, today) and the inputs of the score the file lacks, with what each costs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCORE_CONSTANTS } from "../methodology/score.ts";
import { parseCsv } from "./csv.ts";
import { resolveAsOf } from "./rate-as-of.ts";
import { parseRateInput } from "./rate-input.ts";
import { describeMissed, missedInputs } from "./rate-unknown.ts";
import { REALITY_LIST } from "./reality-check.ts";

const TODAY = "2026-11-28";
/** A part's points as the methodology sets them (the scoring may move them; the wiring is what is tested). */
const pts = (part: string) => SCORE_CONSTANTS.find((c) => c.name === part)?.value;
const BEST_OF = [
  "github_id,star_count,created_at,last_commit_pushed_at",
  "acme/ml,10.0,2020-01-01 10:00:00.000,2025-06-20 09:00:00",
  "acme/two,3.0,2021-01-01 10:00:00.000,2025-06-24 09:00:00",
].join("\n");

describe("resolveAsOf", () => {
  const input = parseRateInput(BEST_OF);

  it("takes --as-of as given, and refuses one before a date the file holds", () => {
    expect(resolveAsOf(input, { flag: "2025-06-24", today: TODAY })).toEqual({
      day: "2025-06-24",
      note: null,
    });
    expect(() => resolveAsOf(input, { flag: "2025-06-23", today: TODAY })).toThrow(
      "--as-of 2025-06-23 is before the file's own dates (last_commit_pushed_at 2025-06-24 on line 3): ages would count backwards.",
    );
  });

  it("reads the day from best-of's file name, else updated_at, else the latest date (a warning), else today", () => {
    expect(resolveAsOf(input, { file: "out/2025-06-26_projects.csv", today: TODAY })).toEqual({
      day: "2025-06-26",
      note: "rating as of 2025-06-26, the date in its name (2025-06-26_projects.csv); pass --as-of YYYY-MM-DD to rate as of another day.",
    });
    const withUpdated = parseRateInput(
      '{"full_name":"a/b","pushed_at":"2025-06-01","updated_at":"2025-06-25T08:00:00Z"}',
    );
    expect(resolveAsOf(withUpdated, { file: "list.jsonl", today: TODAY })).toEqual({
      day: "2025-06-25",
      note: "rating as of 2025-06-25, its latest updated_at (line 1); pass --as-of YYYY-MM-DD to rate as of another day.",
    });
    expect(resolveAsOf(input, { file: "projects.csv", today: TODAY })).toEqual({
      day: "2025-06-24",
      note: "warning: no reading date in the file: rating as of its latest date, last_commit_pushed_at 2025-06-24 on line 3; if the figures were read later, pass --as-of YYYY-MM-DD with that day.",
    });
    expect(resolveAsOf(parseRateInput('{"full_name":"a/b","stars":1}'), { today: TODAY })).toEqual({
      day: TODAY,
      note: `warning: no date in the file: rating as of today, ${TODAY}; pass --as-of YYYY-MM-DD with the day the figures were read.`,
    });
  });

  it("rates as of the file's latest date when its name's date is earlier, saying so", () => {
    expect(resolveAsOf(input, { file: "2025-06-01_projects.csv", today: TODAY })).toEqual({
      day: "2025-06-24",
      note: "warning: the date in its name (2025-06-01_projects.csv) says 2025-06-01, before last_commit_pushed_at 2025-06-24 on line 3: rating as of 2025-06-24; pass --as-of YYYY-MM-DD to rate as of another day.",
    });
  });
});

describe("missedInputs", () => {
  it("names the best-of columns a trimmed export dropped, with the points each feeds (issue 34's transformers)", () => {
    // the reality list without pypi_monthly_downloads and last_commit_pushed_at, as a spreadsheet trimmed it
    const records = parseCsv(readFileSync(REALITY_LIST.file, "utf8")).slice(0, 40);
    const header = records[0]?.cells ?? [];
    const keep = header.flatMap((c, i) =>
      ["pypi_monthly_downloads", "last_commit_pushed_at"].includes(c) ? [] : [i],
    );
    const csv = records.map((r) => keep.map((i) => JSON.stringify(r.cells[i] ?? "")).join(",")).join("\n");
    expect(describeMissed(missedInputs(parseRateInput(csv)))).toEqual([
      `last_commit_pushed_at: maintenance last_commit_points (up to ${pts("last_commit_points")} of 25): no last-commit points, and no finished-project floor`,
      `pypi_monthly_downloads: adoption downloads_points (up to ${pts("downloads_points")} of 25): read as 0`,
    ]);
  });

  it("says nothing of a field another given field stands in for, nor of an input that only classifies", () => {
    const input = parseRateInput(
      [
        '{"full_name":"a/b","description":"x","homepage":"h","topics":["t"],"license":"MIT","created_at":"2020-01-01",',
        '"last_commit_at":"2025-06-01","stars":1,"forks":1,"watchers":1,"open_issues":1,"closed_issues":1,"merged_prs":1,',
        '"contributors":1,"commits_90d":1,"commits_365d":1,"npm_versions_total":3,"npm_version":"1.0.0",',
        '"npm_latest_release_at":"2025-01-01","issue_response_median_hours":3,"npm_downloads_monthly":5,',
        '"dependents":1,"registry_likes":0}',
      ].join(""),
    );
    expect(describeMissed(missedInputs(input))).toEqual([
      `issues_sampled: maintenance issue_response_points (up to ${pts("issue_response_points")} of 25): a median over fewer than 3 issues: scored from the other inputs given`,
      `pypi_stable_releases, pypi_prereleases: maturity stable_share_points (up to ${pts("stable_share_points")} of 25): scored from the other inputs given`,
    ]);
  });
});
