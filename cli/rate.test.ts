// `projintel rate` as a user runs it: the reality list as JSON lines (each repository rated once, the list's
// judgements not echoed), what a file lacks, repeats or dates said once on stderr, bad lines and files refused by
// name, and --diff against a previous --json output.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isoDay } from "../core/clock.ts";
import { parseCsv } from "../pipeline/lists/csv.ts";
import { SCORE_CONSTANTS } from "../pipeline/methodology/score.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "bin", "projintel.js");
const REALITY = path.join(ROOT, "test", "fixtures", "reality", "best-of-ml-python-2025-06-26.csv");

const TMP = mkdtempSync(path.join(os.tmpdir(), "projintel-rate-"));
const pts = (part: string) => SCORE_CONSTANTS.find((c) => c.name === part)?.value;

function run(args: string[], input = "") {
  const result = spawnSync(process.execPath, [CLI, "rate", ...args], {
    encoding: "utf8",
    input,
    env: { PATH: process.env.PATH ?? "" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("projintel rate", () => {
  it("rates each of the best-of list's 422 repositories once as JSON lines, with the explanation a project detail gives", () => {
    const { code, stdout, stderr } = run([REALITY, "--as-of", "2025-06-26", "--json"]);
    expect([code, stderr]).toEqual([
      0,
      "projintel rate: 2 repositories are listed more than once, rated once from the first line: ml-tooling/best-of-python (lines 4, 5, 6, 7, figures differ); microsoft/SynapseML (lines 146, 276, figures differ).\n",
    ]);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBe(422);
    expect(Object.keys(lines[0] ?? {})).toEqual([
      "full_name",
      "quality_score",
      "quality_tier",
      "maintenance_score",
      "adoption_score",
      "maturity_score",
      "community_score",
      "domain",
      "subcategory",
      "stack_layer",
      "rule",
      "explanation",
      "alternatives",
    ]);
    // the rated repositories that do the same job (pipeline/alternatives.test.ts checks the rules)
    expect(lines.find((l) => l.full_name === "librosa/librosa")?.alternatives).toEqual(["MTG/essentia"]);
    const sklearn = lines.find((l) => l.full_name === "scikit-learn/scikit-learn");
    expect(sklearn).toMatchObject({ quality_tier: "verified", domain: "ml-frameworks" });
    expect(Object.keys(sklearn?.explanation as object)).toEqual([
      "maintenance",
      "adoption",
      "maturity",
      "community",
      "archived",
      "finished_project",
      "history_share",
      "fallbacks",
      "estimated",
      "flags",
    ]);
  });

  it("names a line without a repository on stderr, rates the others and exits 1; no date in the file: today, said", () => {
    const { code, stdout, stderr } = run(
      ["-"],
      '{"full_name":"acme/vecs","description":"A vector database","stars":1200}\n{"description":"no name"}\n',
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^acme\/vecs\s+\d+\s+experimental/m);
    const today = isoDay(new Date());
    expect(stdout).toMatch(new RegExp(`^1 rated as of ${today}$`, "m"));
    const said = stderr.trim().split("\n");
    expect(said[0]).toBe("projintel rate: line 2: no full_name: the line names no repository");
    expect(said[1]).toBe(
      "projintel rate: stdin lacks these inputs of the score (no column, or no value in any row), so every row is scored without them:",
    );
    expect(said.slice(-2)).toEqual([
      `projintel rate: warning: no date in the file: rating as of today, ${today}; pass --as-of YYYY-MM-DD with the day the figures were read.`,
      "projintel rate: 1 line(s) set aside, 1 rated. Fix the lines named above and run again.",
    ]);
  });

  it("names the columns a trimmed best-of export dropped and what they cost, and rates as of its file name's date", () => {
    // issue 34: the reality list without pypi_monthly_downloads and last_commit_pushed_at dropped tiers silently
    const records = parseCsv(readFileSync(REALITY, "utf8"));
    const header = records[0]?.cells ?? [];
    const keep = header.flatMap((c, i) =>
      ["pypi_monthly_downloads", "last_commit_pushed_at"].includes(c) ? [] : [i],
    );
    const file = path.join(TMP, "2025-06-26_projects.csv");
    writeFileSync(
      file,
      [records[0], ...records.slice(8, 30)]
        .map((r) => keep.map((i) => JSON.stringify(r?.cells[i] ?? "")).join(","))
        .join("\n"),
    );
    const { code, stdout, stderr } = run([file]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^22 rated as of 2025-06-26$/m);
    expect(stderr).toBe(
      [
        `projintel rate: ${file} lacks these inputs of the score (no column, or no value in any row), so every row is scored without them:`,
        `  last_commit_pushed_at: maintenance last_commit_points (up to ${pts("last_commit_points")} of 25): no last-commit points, and no finished-project floor`,
        `  pypi_monthly_downloads: adoption downloads_points (up to ${pts("downloads_points")} of 25): read as 0`,
        "projintel rate: scores and tiers can be lower than with the figures: add them to rate as a night does.",
        "projintel rate: rating as of 2025-06-26, the date in its name (2025-06-26_projects.csv); pass --as-of YYYY-MM-DD to rate as of another day.",
        "",
      ].join("\n"),
    );
  });

  it("reads a JSON array with best-of's names, a GitHub URL, numbers as text and extra keys; a repository once", () => {
    const { code, stdout, stderr } = run(
      ["-", "--as-of", "2025-06-26", "--json"],
      [
        "[",
        '{"github_id": "https://github.com/acme/vecs.git", "star_count": "1234.5", "category": "db", "pushed_at": "2025-06-01"},',
        '{"full_name": "acme/vecs", "stars": 3}',
        "]",
      ].join("\n"),
    );
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).full_name),
    ).toEqual(["acme/vecs"]);
    expect(stderr.split("\n")[0]).toBe(
      "projintel rate: 1 repository is listed more than once, rated once from the first line: acme/vecs (lines 2, 3, figures differ).",
    );
    expect(stderr).toContain("projintel rate: keys no rating reads, ignored: category.\n");
  });

  it("refuses an --as-of that is not a day or is before the file's dates, and a file with no rows", () => {
    expect(run([REALITY, "--as-of", "2025-13-01"]).stderr).toContain(
      "--as-of 2025-13-01 is not a date. Give the day as YYYY-MM-DD, e.g. 2025-06-26.",
    );
    const early = run([REALITY, "--as-of", "2025-06-01"]);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain(
      "--as-of 2025-06-01 is before the file's own dates (last_commit_pushed_at 2025-06-26 on line 8): ages would count backwards. Give the day the figures were read, 2025-06-26 or later, or leave --as-of out to take it from the file.",
    );
    const empty = run(["-"], "github_id,star_count\n");
    expect([empty.code, empty.stderr]).toEqual([
      1,
      "projintel: stdin holds no rows: there is nothing to rate. Add a line for each repository (at least its full_name, or github_id in a best-of projects.csv).\n",
    ]);
  });

  it("--diff lists the projects whose tier moved since a previous --json output, and sums the moves up", () => {
    const list = path.join(TMP, "list.jsonl");
    writeFileSync(
      list,
      [
        '{"full_name":"acme/big","stars":90000,"forks":9000,"contributors":900,"commits_90d":300,"pushed_at":"2025-06-20","created_at":"2017-01-01","license":"MIT","releases_total":80,"latest_release_tag":"v3.1.0","latest_release_at":"2025-06-01","pypi_downloads_monthly":5000000,"dependents":500}',
        '{"full_name":"acme/small","stars":12,"pushed_at":"2023-01-01","created_at":"2022-06-01"}',
      ].join("\n"),
    );
    const now = run([list, "--as-of", "2025-06-26", "--json"]);
    expect(now.code).toBe(0);
    const [big, small] = now.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // the previous output: acme/big one tier lower with 10 points less maintenance, acme/small as now
    const before = {
      ...big,
      quality_tier: "emerging",
      quality_score: big.quality_score - 10,
      maintenance_score: big.maintenance_score - 10,
    };
    const old = path.join(TMP, "old.jsonl");
    writeFileSync(old, `${JSON.stringify(before)}\n${JSON.stringify(small)}\n`);
    const diff = run([list, "--as-of", "2025-06-26", "--diff", old]);
    expect(diff.code).toBe(0);
    const c = (k: string) => `${before[k]}→${big[k]}`;
    const rows = diff.stdout.split("\n");
    expect(rows[0]?.split(/\s+/)).toEqual(["full_name", "tier", "score", "mnt", "adp", "mat", "com"]);
    expect(rows[1]?.split(/\s+/)).toEqual([
      "acme/big",
      `emerging→${big.quality_tier}`,
      c("quality_score"),
      c("maintenance_score"),
      c("adoption_score"),
      c("maturity_score"),
      c("community_score"),
    ]);
    expect(rows.slice(2)).toEqual([
      `1 of 2 projects change tier against ${old}; 1 change score, median change +5`,
      `  emerging→${big.quality_tier}: 1`,
      "",
    ]);
    const json = JSON.parse(run([list, "--as-of", "2025-06-26", "--diff", old, "--json"]).stdout);
    expect(json).toMatchObject({ as_of: "2025-06-26", compared: 2, tier_changed: 1, median_score_change: 5 });
  });
});
