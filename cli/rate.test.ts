// `projintel rate` as a user runs it: the reality list as JSON lines (every row rated, the list's judgements not
// echoed), a line naming no repository set aside on stderr with exit code 1, and a bad --as-of refused.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "bin", "projintel.js");
const REALITY = path.join(ROOT, "test", "fixtures", "reality", "best-of-ml-python-2025-06-26.csv");

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
  it("rates all 426 rows of the best-of list as JSON lines, with the explanation a project detail gives", () => {
    const { code, stdout, stderr } = run([REALITY, "--as-of", "2025-06-26", "--json"]);
    expect([code, stderr]).toEqual([0, ""]);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBe(426);
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
      "fallbacks",
    ]);
  });

  it("names a line without a repository on stderr, rates the others and exits 1", () => {
    const { code, stdout, stderr } = run(
      ["-"],
      '{"full_name":"acme/vecs","description":"A vector database","stars":1200}\n{"description":"no name"}\n',
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^acme\/vecs\s+\d+\s+experimental/m);
    expect(stdout).toMatch(/^1 rated as of \d{4}-\d{2}-\d{2}$/m);
    expect(stderr).toBe(
      [
        "projintel rate: line 2: no full_name: the line names no repository",
        "projintel rate: 1 line(s) set aside, 1 rated. Fix the lines named above and run again.",
        "",
      ].join("\n"),
    );
  });

  it("refuses an --as-of that is not a day, naming the flag", () => {
    const { code, stderr } = run([REALITY, "--as-of", "2025-13-01"]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "--as-of 2025-13-01 is not a date. Give the day as YYYY-MM-DD, e.g. 2025-06-26.",
    );
  });
});
