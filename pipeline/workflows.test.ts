// Every workflow parses, passes the read-only runner's checks and runs against a hand-made public database with
// exactly the contract's columns; a few recipes are checked row for row.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openQueryRunner, type QueryRunner } from "../core/query/index.ts";
import { makeTempDir, writePublicFixture } from "./public-testing.ts";
import {
  type FirstValue,
  loadWorkflows,
  parseWorkflow,
  type Workflow,
  withDefaultsInData,
  workflowValues,
} from "./workflows.ts";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let runner: QueryRunner;
let workflows: Workflow[];

beforeAll(async () => {
  temp = await makeTempDir();
  const file = path.join(temp.dir, "public.duckdb");
  await writePublicFixture(file);
  runner = await openQueryRunner({ file, threads: 2 });
  workflows = await loadWorkflows();
});

afterAll(async () => {
  runner.close();
  await temp.remove();
});

const EXPECTED_COLUMNS: Record<string, string[]> = {
  "domain-overview": ["domain", "projects", "stars", "avg_quality", "verified", "rising"],
  "hacker-news-favourites": [
    "full_name",
    "hn_posts_90d",
    "hn_points_90d",
    "stars",
    "stars_30d_delta",
    "domain",
  ],
  "hype-without-adoption": [
    "full_name",
    "stars",
    "stars_30d_delta",
    "hype_ratio",
    "adoption_score",
    "downloads_monthly",
    "dependents",
  ],
  "most-depended-packages": [
    "registry",
    "package",
    "full_name",
    "dependents",
    "downloads_monthly",
    "version",
  ],
  "labs-by-quality": [
    "slug",
    "name",
    "kind",
    "projects",
    "avg_quality_score",
    "stars",
    "top_domain",
    "top_project",
  ],
  "contributor-growth": [
    "full_name",
    "contributors_now",
    "contributors_gained",
    "since",
    "stars",
    "stack_layer",
  ],
  "papers-most-starred-implementations": [
    "arxiv_id",
    "title",
    "published_at",
    "implementations",
    "top_stars",
    "top_repository",
  ],
  "recent-releases-verified": ["full_name", "source", "version", "released_at", "quality_score"],
  "rising-in-domain": [
    "full_name",
    "stars",
    "stars_30d_delta",
    "growth_30d_pct",
    "momentum",
    "lifecycle_stage",
    "quality_score",
  ],
  "star-history-30d": ["date", "stars", "stars_gained", "quality_score", "lifecycle_stage"],
  "velocity-leaders-by-layer": [
    "stack_layer",
    "full_name",
    "commits_30d",
    "commits_90d",
    "contributors",
    "quality_score",
  ],
  "went-fading-this-month": [
    "full_name",
    "faded_on",
    "stars",
    "stars_30d_delta",
    "commits_30d",
    "quality_score",
    "domain",
  ],
};

async function rowsOf(slug: string, given: Record<string, string> = {}): Promise<unknown[][]> {
  const workflow = workflows.find((w) => w.slug === slug);
  if (!workflow) throw new Error(`no workflow ${slug}`);
  return (await runner.run(workflow.sql, {}, workflowValues(workflow, given))).rows;
}

describe("workflows", () => {
  it("are listed by slug, each with a title and a description", () => {
    expect(workflows.map((w) => w.slug)).toEqual(Object.keys(EXPECTED_COLUMNS).sort());
    for (const w of workflows) {
      expect(w.title.length).toBeGreaterThan(5);
      expect(w.description.length).toBeGreaterThan(40);
      expect(w.sql).not.toMatch(/^--/);
    }
  });

  it("all run as single read-only SELECTs returning their documented columns", async () => {
    for (const w of workflows) {
      const result = await runner.run(w.sql, {}, workflowValues(w, {}));
      expect([w.slug, result.columns.map((c) => c.name)]).toEqual([w.slug, EXPECTED_COLUMNS[w.slug]]);
      expect(result.truncated).toBe(false);
    }
  });

  it("rising-in-domain: agents by 30-day star gain", async () => {
    expect(await rowsOf("rising-in-domain")).toEqual([
      ["langchain-ai/langchain", 110000, 2000, 1.85, 0.5, "established", 88],
      ["acme/agentkit", 5000, 1500, 42.86, 0.9, "growing", 55],
    ]);
  });

  it("went-fading-this-month: only the change of the last 30 days", async () => {
    expect(await rowsOf("went-fading-this-month")).toEqual([
      ["oldlab/vecstore", "2026-10-20", 9000, -50, 2, 62, "vector-db"],
    ]);
  });

  it("star-history-30d: snapshots inside the window, gains between them", async () => {
    expect(await rowsOf("star-history-30d")).toEqual([
      ["2026-10-15", 146000, null, 91, null],
      ["2026-10-25", 149100, 3100, 92, null],
      ["2026-11-01", 150000, 900, 92, null],
    ]);
  });

  it("papers-most-starred-implementations: linked repositories matched without case", async () => {
    expect(await rowsOf("papers-most-starred-implementations")).toEqual([
      ["2401.00001", "Agents all the way down", "2024-01-01 00:00:00", 2, 110000, "langchain-ai/langchain"],
      ["2402.00002", "Boxes of retrieval", "2024-02-01 00:00:00", 1, 1200, "acme/ragbox"],
    ]);
  });

  it("labs-by-quality, recent-releases-verified, hype-without-adoption and contributor-growth", async () => {
    expect(await rowsOf("labs-by-quality")).toEqual([
      ["acme", "acme", "github-owner", 3, 53.3, 7000, "agents", "acme/agentkit"],
    ]);
    expect(await rowsOf("recent-releases-verified")).toEqual([
      ["ollama/ollama", "pypi", "0.4.0", "2026-10-29 08:00:00", 92],
      ["ollama/ollama", "github", "v0.4.0", "2026-10-28 10:00:00", 92],
    ]);
    expect(await rowsOf("hype-without-adoption")).toEqual([
      ["acme/ragbox", 1200, 800, 0.91, 2, 100, 0],
      ["acme/agentkit", 5000, 1500, 0.84, 8, 2000, 1],
    ]);
    expect(await rowsOf("contributor-growth")).toEqual([
      ["ollama/ollama", 500, 20, "2026-10-05", 150000, "inference"],
    ]);
  });
});

describe("withDefaultsInData", () => {
  /** Through the read-only runner, as `projintel sql` checks them (publish checks them on the warehouse). */
  const firstValue: FirstValue = async (sql, params) => {
    const value = (await runner.run(sql, {}, params)).rows[0]?.[0];
    return value === undefined || value === null ? undefined : String(value);
  };
  /** A recipe listing the rows of `table` whose full_name is its one parameter. */
  const recipe = (param: string, table = "projects") =>
    parseWorkflow(
      "t",
      `-- title: T\n-- description: D\n-- param: ${param}: what\nSELECT full_name FROM ${table} WHERE full_name = $1`,
    );

  it("keeps a default under which the recipe has rows, and puts the most-starred row's value for one without", async () => {
    const kept = await withDefaultsInData(
      recipe("repo (default acme/ragbox, from projects.full_name)"),
      firstValue,
    );
    expect(kept.params[0]?.default).toBe("acme/ragbox");
    const replaced = await withDefaultsInData(
      recipe("repo (default nobody/nothing, from projects.full_name)"),
      firstValue,
    );
    const [[top]] = (await runner.run("SELECT full_name FROM projects ORDER BY stars DESC LIMIT 1")).rows as [
      [string],
    ];
    expect(replaced.params[0]?.default).toBe(top);
  });

  it("tries the most frequent values where the table has no stars, and leaves a parameter without a column as it is", async () => {
    const frequent = await withDefaultsInData(
      recipe("repo (default nobody/nothing, from transitions.full_name)", "transitions"),
      firstValue,
    );
    expect(frequent.params[0]?.default).toBe("oldlab/vecstore");
    const free = await withDefaultsInData(recipe("n (default 10)"), firstValue);
    expect(free.params).toEqual([{ name: "n", default: "10", description: "what" }]);
  });
});

describe("parseWorkflow", () => {
  it("joins continued header lines and keeps the SQL after the header", () => {
    expect(
      parseWorkflow(
        "top-stars",
        "-- title: Top stars\n-- description: The most-starred\n--   projects.\n-- param: n (default 10): how\n--   many\nSELECT $1;\n",
      ),
    ).toEqual({
      slug: "top-stars",
      title: "Top stars",
      description: "The most-starred projects.",
      params: [{ name: "n", default: "10", description: "how many" }],
      sql: "SELECT $1;",
    });
  });

  it("binds given values by name, defaults for the others, and refuses a name it does not take", () => {
    const history = workflows.find((w) => w.slug === "star-history-30d") as Workflow;
    expect(history.params).toEqual([
      {
        name: "repo",
        default: "ollama/ollama",
        description: "the repository, as owner/name",
        from: { table: "projects", column: "full_name" },
      },
    ]);
    expect(workflowValues(history, {})).toEqual(["ollama/ollama"]);
    expect(workflowValues(history, { repo: "acme/ragbox" })).toEqual(["acme/ragbox"]);
    expect(() => workflowValues(history, { full_name: "acme/ragbox" })).toThrow(
      'Workflow star-history-30d has no parameter "full_name".',
    );
  });

  it("refuses a header whose param lines do not match the SQL's placeholders", () => {
    expect(() => parseWorkflow("x", "-- title: X\n-- description: d\nSELECT $1")).toThrow(
      "Workflow x.sql is invalid: its SQL uses $1 but the header declares 0 param line(s).",
    );
    expect(() => parseWorkflow("x", "-- title: X\n-- description: d\n-- param: n = 3\nSELECT $1")).toThrow(
      'Workflow x.sql is invalid: param "n = 3" is not `name (default value): what it is`.',
    );
  });

  it("names what is missing or unknown", () => {
    expect(() => parseWorkflow("x", "-- title: X\nSELECT 1")).toThrow(
      "Workflow x.sql is invalid: description: Invalid input: expected string, received undefined.",
    );
    expect(() => parseWorkflow("x", "-- title: X\n-- description: d\n")).toThrow(
      "Workflow x.sql is invalid: sql: Too small: expected string to have >=1 characters.",
    );
    expect(() => parseWorkflow("Bad_Name", "-- title: X\n-- description: d\nSELECT 1")).toThrow(
      "Workflow Bad_Name.sql is invalid: slug: a kebab-case file name.",
    );
    expect(() => parseWorkflow("x", "-- title: X\n-- description: d\n-- author: me\nSELECT 1")).toThrow(
      /Workflow x\.sql is invalid: header: Unrecognized key: "author"/,
    );
  });
});
