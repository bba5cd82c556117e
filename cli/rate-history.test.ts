// `projintel rate FILE --history` as a user runs it: a small dated history replayed to one JSON line per project and
// date (the fields the issue names), --transitions printing the changes of stage, a bad row named by line with exit
// code 1, and --transitions without --history refused.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "bin", "projintel.js");
const TMP = mkdtempSync(path.join(os.tmpdir(), "projintel-rate-history-"));
/** A replay starts tsx and DuckDB and runs each date's SQL: generous, as the machine may be shared. */
const RUN_TIMEOUT_MS = 300_000;

function run(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "rate", ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: RUN_TIMEOUT_MS,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// two projects over three weekly dates: one renamed on the last (updated_github_id), one with no push for over a
// year whose last row does not parse
const HISTORY = `snapshot_date,github_id,updated_github_id,created_at,last_commit_pushed_at,star_count
2024-03-04,acme/old,,2015-01-01 00:00:00+00:00,2024-03-01 00:00:00+00:00,1000.0
2024-03-04,acme/quiet,,2015-01-01 00:00:00+00:00,2023-01-01 00:00:00+00:00,700
2024-03-11,acme/old,,2015-01-01 00:00:00+00:00,2024-03-08 00:00:00+00:00,1070.0
2024-03-11,acme/quiet,,2015-01-01 00:00:00+00:00,2023-01-01 00:00:00+00:00,700
2024-03-18,acme/old,acme/new,2015-01-01 00:00:00+00:00,2024-03-15 00:00:00+00:00,1140.0
2024-03-18,acme/quiet,,2015-01-01 00:00:00+00:00,2023-01-01 00:00:00+00:00,seven hundred
`;

describe("projintel rate --history", () => {
  it(
    "prints each project's night as JSON, or its changes of stage, and names the row it set aside",
    () => {
      const file = path.join(TMP, "history.csv");
      writeFileSync(file, HISTORY);
      const { code, stdout, stderr } = run([file, "--history", "--json"]);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `projintel rate --history: ${file}:7: star_count: Error when converting column`,
      );
      expect(stderr).toContain("2 projects over 3 dates (2024-03-04 to 2024-03-18), 5 rows");
      const rows = stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows.map((r) => Object.keys(r))).toEqual(
        rows.map(() => [
          "full_name",
          "date",
          "lifecycle_stage",
          "quality_score",
          "quality_tier",
          "stars",
          "stars_7d_delta",
          "stars_30d_delta",
          "momentum",
        ]),
      );
      // one history under the latest name; a week's 70 stars read as 60 on the second night (the median of a series'
      // first day is that day alone), 70 on the third
      expect(rows.map((r) => [r.full_name, r.date, r.lifecycle_stage, r.stars, r.stars_7d_delta])).toEqual([
        ["acme/new", "2024-03-04", "established", 1000, null],
        ["acme/new", "2024-03-11", "established", 1070, 60],
        ["acme/new", "2024-03-18", "established", 1140, 70],
        ["acme/quiet", "2024-03-04", "dormant", 700, null],
        ["acme/quiet", "2024-03-11", "dormant", 700, 0],
      ]);
      const changes = run([file, "--history", "--transitions", "--json"]);
      expect(
        changes.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l)),
      ).toEqual([
        { full_name: "acme/new", date: "2024-03-04", from_stage: null, to_stage: "established" },
        { full_name: "acme/quiet", date: "2024-03-04", from_stage: null, to_stage: "dormant" },
      ]);
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    "refuses --transitions without --history (exit 2)",
    () => {
      const { code, stderr } = run([path.join(TMP, "none.csv"), "--transitions"]);
      expect(code).toBe(2);
      expect(stderr).toContain("--transitions goes with --history");
    },
    RUN_TIMEOUT_MS,
  );
});
