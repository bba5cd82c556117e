// GET /api/v1/workflows over a release of the simulated world: every recipe of data/workflows/ as served, and every
// recipe run through the query sandbox on the public database POST /api/v1/query reads, returning rows. A recipe
// whose input this small world lacks is run with a value the world has, and the lack itself is asserted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openQueryRunner, type QueryRunner } from "../../core/query/index.ts";
import { resolvePublicDb } from "../../pipeline/public-db.ts";
import { loadWorkflows, type Workflow } from "../../pipeline/workflows.ts";
import { itemEnvelope, workflowsSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Served {
  name: string;
  title: string;
  parameters: { name: string; default: string; description: string }[];
  parameter_notes: string | null;
  sql: string;
  example_request: { sql: string; params?: string[] };
}

let sim: SimApp;
let runner: QueryRunner;
let workflows: Workflow[];
let served: Served[];

async function scalar(sql: string): Promise<string | number> {
  const [row] = await sim.db.all<{ v: string | number | bigint }>(sql);
  return typeof row?.v === "bigint" ? Number(row.v) : (row?.v as string | number);
}

/** Runs a recipe's SQL, with one literal swapped for another when asked, on the public database. */
async function run(name: string, swap?: [string, string], params?: string[]) {
  const recipe = served.find((w) => w.name === name) as Served;
  const sql = swap ? recipe.sql.replace(swap[0], swap[1]) : recipe.example_request.sql;
  if (swap) expect(sql).not.toBe(recipe.sql);
  return runner.run(sql, {}, params ?? recipe.example_request.params ?? []);
}

beforeAll(async () => {
  sim = await sharedSimApp();
  const file = await resolvePublicDb(sim.stateDir, sim.runDate);
  runner = await openQueryRunner({ file: file?.path ?? "", threads: 1 });
  workflows = await loadWorkflows();
  const res = await sim.app.inject({ url: "/api/v1/workflows" });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(itemEnvelope(workflowsSchema).safeParse(body).success).toBe(true);
  served = body.data.workflows;
}, 600_000);
afterAll(async () => {
  runner?.close();
  await sim?.close();
});

describe("GET /api/v1/workflows", () => {
  it("serves every recipe of data/workflows/, by name, with its SQL as the example query body", () => {
    expect(served.map((w) => w.name)).toEqual(workflows.map((w) => w.slug));
    expect(served).toHaveLength(12);
    for (const [i, w] of workflows.entries()) {
      expect(served[i]).toMatchObject({ title: w.title, description: w.description, sql: w.sql });
      const defaults = served[i]?.parameters.map((p) => p.default) ?? [];
      expect(defaults).toHaveLength(w.params.length);
      expect(served[i]?.example_request).toEqual(
        defaults.length ? { sql: w.sql, params: defaults } : { sql: w.sql },
      );
    }
  });

  it("shows each default as this release's data holds it: a recipe run as served with its defaults has rows", async () => {
    // ollama/ollama is not in the simulated world: the most-starred project stands in for it
    const top = String(
      await scalar("SELECT full_name AS v FROM projects ORDER BY stars DESC, full_name LIMIT 1"),
    );
    expect(top).not.toBe("ollama/ollama");
    const history = served.find((w) => w.name === "star-history-30d");
    expect(history?.example_request.params).toEqual([top]);
    expect((await run("star-history-30d")).row_count).toBeGreaterThan(0);
    // no agents project of this small world gained stars in 30 days: the first domain by stars that has one stands in
    const gainers = "count(*) FILTER (WHERE NOT is_archived AND stars_30d_delta > 0)";
    expect(await scalar(`SELECT ${gainers} AS v FROM projects WHERE domain = 'agents'`)).toBe(0);
    const rising = await scalar(
      `SELECT domain AS v FROM projects GROUP BY domain HAVING ${gainers} > 0 ORDER BY max(stars) DESC, domain LIMIT 1`,
    );
    expect(served.find((w) => w.name === "rising-in-domain")?.example_request.params).toEqual([rising]);
    expect((await run("rising-in-domain")).row_count).toBeGreaterThan(0);
  });

  it("names the parameters a recipe binds, with their defaults and how to pass them", () => {
    const rising = served.find((w) => w.name === "rising-in-domain");
    expect(rising?.parameters).toEqual([
      {
        name: "domain",
        default: rising?.example_request.params?.[0],
        description: "the domain's slug (the domain-overview workflow lists them)",
      },
    ]);
    expect(rising?.parameter_notes).toBe("Give params in this order: domain ($1).");
    expect(rising?.sql).toContain("SELECT $1::VARCHAR AS domain");
    const history = served.find((w) => w.name === "star-history-30d");
    expect(history?.parameters).toEqual([
      {
        name: "repo",
        default: history?.example_request.params?.[0],
        description: "the repository, as owner/name",
      },
    ]);
    const plain = served.filter((w) => w.parameters.length === 0).map((w) => w.parameter_notes);
    expect(plain).toHaveLength(10);
    expect(new Set(plain)).toEqual(new Set([null]));
  });

  it.each([
    "contributor-growth",
    "hacker-news-favourites",
    "hype-without-adoption",
    "labs-by-quality",
    "velocity-leaders-by-layer",
  ])("%s runs as served and returns rows", async (name) => {
    const result = await run(name);
    expect(result.row_count).toBeGreaterThan(0);
    expect(result.truncated).toBe(false);
  });

  it("domain-overview returns one row per domain holding projects", async () => {
    const result = await run("domain-overview");
    expect(result.row_count).toBe(await scalar("SELECT count(DISTINCT domain) AS v FROM projects"));
  });

  it("rising-in-domain and star-history-30d return rows once their parameter names something in this world", async () => {
    const domain = String(
      await scalar(
        "SELECT domain AS v FROM projects WHERE NOT is_archived AND stars_30d_delta > 0 ORDER BY stars_30d_delta DESC LIMIT 1",
      ),
    );
    const rising = await run("rising-in-domain", undefined, [domain]);
    const gainers = await scalar(
      `SELECT count(*) AS v FROM projects WHERE domain = '${domain}' AND NOT is_archived AND stars_30d_delta > 0`,
    );
    expect(rising.row_count).toBe(Math.min(25, Number(gainers)));
    expect(rising.row_count).toBeGreaterThan(0);

    const top = String(await scalar("SELECT full_name AS v FROM projects ORDER BY stars DESC LIMIT 1"));
    const history = await run("star-history-30d", undefined, [top]);
    // ten nights replayed, all within the 30 days
    expect(history.row_count).toBe(10);
    expect(history.rows.map((r) => r[0])).toEqual(
      (
        await sim.db.all<{ d: string }>(
          `SELECT strftime(date, '%Y-%m-%d') AS d FROM snapshots WHERE full_name = '${top}' ORDER BY date`,
        )
      ).map((r) => r.d),
    );
  });

  it("the recipes over what this small world lacks (or barely has) run, and return rows for a value the world has", async () => {
    // one project reaches the verified tier (80+) in 10 nights of 300 simulated repositories: the recipe lists its
    // recent releases and no other project's
    expect(await scalar("SELECT count(*) AS v FROM projects WHERE quality_tier = 'verified'")).toBe(1);
    const verified = await run("recent-releases-verified");
    expect(verified.row_count).toBe(3);
    expect(new Set(verified.rows.map((r) => r[0]))).toEqual(
      new Set([await scalar("SELECT full_name AS v FROM projects WHERE quality_tier = 'verified'")]),
    );
    // small experimental repositories rarely tag releases: the recent ones are emerging projects'
    const emerging = await run("recent-releases-verified", ["'verified'", "'emerging'"]);
    expect(emerging.row_count).toBeGreaterThan(0);

    // every registry is probed on its first night, so the packages linked in 10 nights depend on each other:
    // the recipe lists the 15 with dependents as the warehouse has them, most depended on first
    const depended = await run("most-depended-packages");
    const warehouse = await sim.db.all<Record<string, string | number | bigint | null>>(
      `SELECT registry, package, full_name, dependents, downloads_monthly, version FROM packages
       WHERE registry IN ('pypi', 'npm') AND dependents > 0 ORDER BY dependents DESC, registry, package LIMIT 50`,
    );
    expect(depended.rows.map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)))).toEqual(
      warehouse.map((r) => Object.values(r).map((v) => (typeof v === "bigint" ? Number(v) : v))),
    );
    expect(depended.row_count).toBe(15);
    expect(depended.rows.slice(0, 3).map((r) => [r[0], r[1], r[2], r[3]])).toEqual([
      ["pypi", "tufekcrawl", "pemakmehq/TufekCrawl", 10],
      ["npm", "@serinfi/zalusrec", "serinfi/zalusrec", 8],
      ["npm", "gibek", "mofisro63/gibek", 6],
    ]);

    // no established project went fading; the one change into fading came from emerging
    expect(
      await scalar(
        "SELECT count(*) AS v FROM transitions WHERE from_stage = 'established' AND to_stage = 'fading'",
      ),
    ).toBe(0);
    expect((await run("went-fading-this-month")).row_count).toBe(0);
    const fromEmerging = await run("went-fading-this-month", ["'established'", "'emerging'"]);
    expect(fromEmerging.row_count).toBe(
      await scalar(
        `SELECT count(*) AS v FROM transitions WHERE from_stage = 'emerging' AND to_stage = 'fading' AND date > DATE '${sim.runDate}' - 30`,
      ),
    );
    expect(fromEmerging.row_count).toBeGreaterThan(0);

    // every paper linked in this world has its implementations ranked by stars
    const papers = await run("papers-most-starred-implementations");
    expect(papers.row_count).toBeGreaterThan(0);
    expect(papers.row_count).toBeLessThanOrEqual(Number(await scalar("SELECT count(*) AS v FROM papers")));
    expect(papers.columns.map((c) => c.name)).toEqual([
      "arxiv_id",
      "title",
      "published_at",
      "implementations",
      "top_stars",
      "top_repository",
    ]);
  });
});
