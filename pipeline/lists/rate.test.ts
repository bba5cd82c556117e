// `projintel rate` through the nightly's SQL: JSON (lines, an array, best-of's names) and a best-of projects.csv read
// into the score's inputs, unknown figures scored as the nightly scores unknowns, bad lines set aside by number.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.ts";
import { rateRepos } from "./rate.ts";
import { distinctRows, parseRateInput, RATE_FIELDS, rateInputTable } from "./rate-input.ts";
import { NOT_SCORED, UNKNOWN_READS } from "./rate-unknown.ts";
import { REALITY_LIST } from "./reality-check.ts";

const REALITY = REALITY_LIST.file;

describe("parseCsv", () => {
  it("keeps quoted commas, doubled quotes and line breaks, and numbers each record by its first line", () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",z\r\nlast,\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["x, y", 'say "hi"'] },
      { line: 3, cells: ["two\nlines", "z"] },
      { line: 5, cells: ["last", ""] },
    ]);
  });
});

describe("parseRateInput", () => {
  it("reads a best-of projects.csv by its header, figures as numbers, empty cells unknown, judgements ignored", () => {
    const input = parseRateInput(
      [
        "github_id,category,star_count,fork_count,recent_commit_count,projectrank,show,pypi_id",
        "acme/ml,nlp,5326.0,776.0,,41,True,acme-ml",
        ",nlp,10.0,,,3,False,",
        "acme/two,nlp,many,,,3,False,",
        "https://github.com/acme/three.git,nlp,1234.5,,,3,False,",
      ].join("\n"),
    );
    expect(input.format).toBe("best-of-csv");
    expect(input.rows).toEqual([
      { line: 2, full_name: "acme/ml", stars: 5326, forks: 776, pypi_package: "acme-ml" },
      // a count with a fraction is rounded; a GitHub URL read as owner/name
      { line: 5, full_name: "acme/three", stars: 1235 },
    ]);
    expect(input.problems).toEqual([
      { line: 3, reason: "github_id is empty: the line names no repository" },
      { line: 4, reason: 'stars "many" is not a number' },
    ]);
    // every column the score reads but this header: named once by the CLI (rate-unknown.ts)
    expect(input.absent_columns).toContain("pypi_monthly_downloads");
  });

  it("refuses a file with a header and no rows, and a JSON array of none", () => {
    expect(() => parseRateInput("github_id,star_count\n", "list.csv")).toThrow(
      "list.csv holds no rows: there is nothing to rate.",
    );
    expect(() => parseRateInput("[]", "list.json")).toThrow(
      "list.json holds no rows: there is nothing to rate.",
    );
  });

  it("reads JSON with extra keys (named as ignored), best-of's names, numbers and booleans as text, GitHub URLs", () => {
    const input = parseRateInput(
      [
        '{"github_id":"https://github.com/acme/ml/tree/main/docs","star_count":"1234.5","category":"nlp","show":true}',
        '{"full_name":"git@github.com:acme/two.git","stars":"7","star_count":99,"archived":"True","updated_at":"2025-06-26 08:00:00"}',
        '{"full_name":"https://gitlab.com/acme/three"}',
        '{"full_name":"acme/four","stars":-1}',
      ].join("\n"),
    );
    expect(input.rows).toEqual([
      { line: 1, full_name: "acme/ml", stars: 1235 },
      // a line giving a field by both names keeps the field's own
      { line: 2, full_name: "acme/two", stars: 7, archived: true },
    ]);
    expect(input.problems).toEqual([
      {
        line: 3,
        reason:
          "full_name https://gitlab.com/acme/three is not a GitHub repository: give owner/name or https://github.com/owner/name",
      },
      { line: 4, reason: "stars Too small: expected number to be >=0" },
    ]);
    expect([input.ignored, input.best_of_names, input.updated_at]).toEqual([
      ["category", "show"],
      true,
      { day: "2025-06-26", line: 2, field: "updated_at" },
    ]);
  });

  it("reads a JSON array, each object numbered by the line it starts on", () => {
    const input = parseRateInput(
      '[\n  {"full_name": "a/b",\n   "stars": 3},\n  {"full_name": "c/d"}, 4\n]\n',
    );
    expect(input.format).toBe("json");
    expect(input.rows).toEqual([
      { line: 2, full_name: "a/b", stars: 3 },
      { line: 4, full_name: "c/d" },
    ]);
    expect(input.problems).toEqual([
      { line: 4, reason: "not a JSON object: give one object per repository" },
    ]);
    expect(() => parseRateInput('[\n{"full_name": "a/b"},\n{"full_name" "c/d"}\n]', "list.json")).toThrow(
      /^list\.json is not valid JSON( \(line 3\))?: /,
    );
  });

  it("rates a repository listed twice once, from its first line, saying whether the figures differ", () => {
    const input = parseRateInput(
      '{"full_name":"a/b","stars":3}\n{"full_name":"c/d"}\n{"full_name":"A/B","stars":3}\n{"full_name":"c/d","stars":1}\n',
    );
    expect(distinctRows(input.rows)).toEqual({
      rows: [
        { line: 1, full_name: "a/b", stars: 3 },
        { line: 2, full_name: "c/d" },
      ],
      duplicates: [
        { full_name: "a/b", lines: [1, 3], differ: true },
        { full_name: "c/d", lines: [2, 4], differ: true },
      ],
    });
  });

  it("reads the original export too: a leading unnamed index column, a byte-order mark, no judgements", () => {
    const input = parseRateInput(
      "\uFEFF,github_id,star_count,last_commit_pushed_at\n0,acme/ml,10.0,2025-06-01 10:00:00\n",
    );
    expect(input.rows).toEqual([
      { line: 2, full_name: "acme/ml", stars: 10, pushed_at: "2025-06-01 10:00:00" },
    ]);
  });

  it("reads JSON lines, setting aside a line without full_name or with invalid JSON", () => {
    const input = parseRateInput('{"full_name":"a/b","stars":3}\n\n{"stars":4}\n{oops\n');
    expect(input.rows).toEqual([{ line: 1, full_name: "a/b", stars: 3 }]);
    expect(input.problems.map((p) => [p.line, p.reason.split(" (")[0]])).toEqual([
      [3, "no full_name: the line names no repository"],
      [4, "invalid JSON"],
    ]);
  });

  it("refuses a file that is neither, naming the missing columns", () => {
    expect(() => parseRateInput("name,stars\nx,1\n", "list.csv")).toThrow(
      "list.csv is neither JSON nor a best-of projects.csv: its header lacks github_id, star_count.",
    );
  });
});

describe("rateRepos", () => {
  it("scores and classifies from the figures given, an unknown figure scored from every known input", async () => {
    const [rated] = await rateRepos(
      [
        {
          line: 1,
          full_name: "acme/vecs",
          description: "A vector database in Rust",
          license: "MIT",
          created_at: "2022-06-26",
          pushed_at: "2025-06-20",
          stars: 5000,
          forks: 400,
          watchers: 60,
          open_issues: 40,
          closed_issues: 300,
          contributors: 80,
          commits_90d: 120,
          releases_total: 30,
          latest_release_tag: "v1.4.0",
          latest_release_at: "2025-05-27",
          pypi_downloads_monthly: 200_000,
          dependents: 10,
        },
      ],
      "2025-06-26",
    );
    expect(rated).toMatchObject({
      full_name: "acme/vecs",
      quality_score: 70,
      quality_tier: "established",
      // commits 6 + last commit 4 + release 4; the unknown steady work and responsiveness earn the share all the
      // known inputs earned (about 70%): 3 of 4 and 4 of 6, not maintenance's own 92.5% again
      maintenance_score: 21,
      // stars 6 + forks 2 + downloads 6 + dependents 1 (10 of 100,000 on a log scale) + unknown likes 1 of 2
      adoption_score: 16,
      // age 3 + releases 4 + stable 4 + licence 4; the unknown stable share 1 and documentation 2 (the description,
      // and homepage and topics unstated: unknown, not absent)
      maturity_score: 18,
      // contributors 6 + issues 3 + watchers 2, and the unknown merged pull requests 4 of 5
      community_score: 15,
      domain: "vector-db",
      stack_layer: "data",
    });
    expect(rated?.explanation.fallbacks).toEqual([
      "active_weeks_52w",
      "issue_response_median_hours",
      "registry_likes",
      "stable_share",
      "docs_signals",
      "merged_prs",
    ]);
    // the push date stands in for the last commit: a value, estimated, not unknown
    expect(rated?.explanation.estimated).toEqual(["days_since_last_commit"]);
  });

  // how long 1,000 rows take is measured by `npm run bench -- reality`, not asserted here
  it("rates the reality list's 426 rows, and 1,000 rows (the list repeated)", async () => {
    const { rows, problems } = parseRateInput(readFileSync(REALITY, "utf8"));
    expect([rows.length, problems]).toEqual([426, []]);
    // four lists' entry for one repository, and one repository under its old and new name
    expect(distinctRows(rows).duplicates.map((d) => [d.full_name, d.lines])).toEqual([
      ["ml-tooling/best-of-python", [4, 5, 6, 7]],
      ["microsoft/SynapseML", [146, 276]],
    ]);
    const thousand = Array.from({ length: 1000 }, (_, i) => ({ ...rows[i % rows.length], line: i + 2 }));
    const rated = await rateRepos(thousand as typeof rows, "2025-06-26");
    expect(rated.map((r) => r.full_name)).toEqual(thousand.map((r) => r.full_name));
  });
});

describe("rate-unknown.ts", () => {
  it("says for every field of a rate line what an unknown one costs, or that the score does not read it", () => {
    expect(RATE_FIELDS.filter((f) => !(f in UNKNOWN_READS) && !NOT_SCORED.includes(f))).toEqual([]);
  });
});

describe("docs/analytics.md", () => {
  it("lists every rate input with the best-of column feeding it, as pipeline/lists/rate-input.ts defines them", () => {
    const readme = readFileSync(
      path.join(path.dirname(REALITY), "..", "..", "..", "docs", "analytics.md"),
      "utf8",
    );
    expect(readme).toContain(rateInputTable());
  });
});
