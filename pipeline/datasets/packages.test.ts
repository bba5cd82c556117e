// ds_dependencies_trending and packages on a hand-made warehouse: the week-vs-month rate, npm's monthly totals
// compared 7–14 days apart, the downloads floor, the growth cap and its tie-break, stale and untracked packages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { type Cell, createTable, memoryDb, runTransforms } from "../sql-testing.ts";
import {
  FEAT_PACKAGES_COLUMNS,
  PROJECTS_COLUMNS,
  project,
  RAW_NPM_DOWNLOADS_COLUMNS,
  RUN_DATE,
} from "./fixtures.ts";

const pkg = (
  registry: string,
  name: string,
  repo: string,
  monthly: number,
  weekly: number | null,
  values: Record<string, Cell> = {},
) => ({
  registry,
  package: name,
  repo_full_name: repo,
  version: "1.0.0",
  downloads_monthly: monthly,
  downloads_weekly: weekly,
  dependencies: [],
  deprecated: false,
  as_of: RUN_DATE,
  dependents: 0,
  is_stale: false,
  ...values,
});

const monthTotal = (name: string, runDate: string, downloads: number) => ({
  run_date: runDate,
  package: name,
  start_date: "2026-10-01",
  end_date: "2026-10-30",
  downloads,
});

describe("package datasets", () => {
  let db: Db;
  beforeAll(async () => {
    db = await memoryDb();
    await createTable(db, "projects", PROJECTS_COLUMNS, [
      project("a/alpha"),
      project("b/beta", { domain: "rag" }),
      project("c/gamma"),
      project("d/delta"),
      project("e/eps"),
      project("Big/Model", { domain: "llm-inference" }),
    ]);
    await createTable(db, "feat_packages", FEAT_PACKAGES_COLUMNS, [
      pkg("pypi", "alpha", "a/alpha", 3000, 1400, { dependents: 2 }),
      pkg("pypi", "alpha-extra", "a/alpha", 2000, 2800),
      pkg("pypi", "betapkg", "b/beta", 30000, 7000),
      pkg("pypi", "gammapkg", "c/gamma", 1000, 1000),
      pkg("pypi", "tiny", "e/eps", 999, 999),
      pkg("pypi", "stale", "d/delta", 5000, 5000, { is_stale: true, as_of: "2026-11-01" }),
      pkg("pypi", "orphan", "z/zeta", 5000, 5000),
      pkg("npm", "@a/web", "a/alpha", 10000, null),
      pkg("npm", "dl-series", "b/beta", 5000, 1400),
      pkg("npm", "old-only", "d/delta", 4000, null),
      pkg("npm", "flat", "e/eps", 2000, null),
      pkg("docker", "big/model", "big/model", 0, null, { pulls_total: 1000000, version: null }),
    ]);
    await createTable(db, "raw_npm_downloads", RAW_NPM_DOWNLOADS_COLUMNS, [
      monthTotal("@a/web", "2026-11-20", 10000),
      monthTotal("@a/web", "2026-11-16", 9000),
      monthTotal("@a/web", "2026-11-12", 8000),
      monthTotal("@a/web", "2026-11-05", 5000),
      monthTotal("old-only", "2026-11-20", 4000),
      monthTotal("old-only", "2026-11-01", 1000),
      monthTotal("flat", "2026-11-20", 2000),
      monthTotal("flat", "2026-11-10", 2000),
    ]);
    await runTransforms(db, ["ds_dependencies_trending", "packages"], RUN_DATE);
  });
  afterAll(() => db.close());

  it("ranks rising packages per registry by capped growth, then monthly downloads", async () => {
    expect(await db.all("SELECT * FROM ds_dependencies_trending")).toEqual([
      {
        registry: "npm",
        rank: 1,
        package: "@a/web",
        full_name: "a/alpha",
        domain: "agents",
        downloads_monthly: 10000,
        downloads_weekly: null,
        growth_pct: 25,
        method: "monthly_total",
        dependents: 0,
      },
      {
        registry: "npm",
        rank: 2,
        package: "dl-series",
        full_name: "b/beta",
        domain: "rag",
        downloads_monthly: 5000,
        downloads_weekly: 1400,
        growth_pct: 20,
        method: "weekly_rate",
        dependents: 0,
      },
      {
        registry: "pypi",
        rank: 1,
        package: "alpha-extra",
        full_name: "a/alpha",
        domain: "agents",
        downloads_monthly: 2000,
        downloads_weekly: 2800,
        growth_pct: 300,
        method: "weekly_rate",
        dependents: 0,
      },
      {
        registry: "pypi",
        rank: 2,
        package: "gammapkg",
        full_name: "c/gamma",
        domain: "agents",
        downloads_monthly: 1000,
        downloads_weekly: 1000,
        growth_pct: 300,
        method: "weekly_rate",
        dependents: 0,
      },
      {
        registry: "pypi",
        rank: 3,
        package: "alpha",
        full_name: "a/alpha",
        domain: "agents",
        downloads_monthly: 3000,
        downloads_weekly: 1400,
        growth_pct: 100,
        method: "weekly_rate",
        dependents: 2,
      },
    ]);
  });

  it("publishes the packages of tracked projects under GitHub's spelling, stale ones flagged", async () => {
    expect(
      await db.all(
        "SELECT registry, package, full_name, downloads_monthly, pulls_total, is_stale FROM packages",
      ),
    ).toEqual([
      {
        registry: "docker",
        package: "big/model",
        full_name: "Big/Model",
        downloads_monthly: 0,
        pulls_total: 1000000,
        is_stale: false,
      },
      ...[
        ["npm", "@a/web", "a/alpha", 10000],
        ["npm", "dl-series", "b/beta", 5000],
        ["npm", "flat", "e/eps", 2000],
        ["npm", "old-only", "d/delta", 4000],
        ["pypi", "alpha", "a/alpha", 3000],
        ["pypi", "alpha-extra", "a/alpha", 2000],
        ["pypi", "betapkg", "b/beta", 30000],
        ["pypi", "gammapkg", "c/gamma", 1000],
        ["pypi", "stale", "d/delta", 5000],
        ["pypi", "tiny", "e/eps", 999],
      ].map(([registry, name, fullName, monthly]) => ({
        registry,
        package: name,
        full_name: fullName,
        downloads_monthly: monthly,
        pulls_total: null,
        is_stale: name === "stale",
      })),
    ]);
    const [columns] = await db.all<{ names: string[] }>(
      "SELECT list(column_name ORDER BY column_index) AS names FROM duckdb_columns() WHERE table_name = 'packages'",
    );
    expect(columns?.names).toEqual([
      "registry",
      "package",
      "full_name",
      "version",
      "license",
      "versions_total",
      "stable_releases",
      "prereleases",
      "first_release_at",
      "latest_release_at",
      "downloads_monthly",
      "downloads_weekly",
      "pulls_total",
      "likes",
      "dependencies",
      "dependents",
      "deprecated",
      "as_of",
      "is_stale",
    ]);
  });
});
