// ds_status over hand-made public tables and raw tables: row counts, domains, source freshness and stale
// packages, read back as the typed status object.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDb, runSqlFile } from "../core/db.ts";
import { createPublicTables, FIXTURE_RUN_DATE, rawTable } from "./public-testing.ts";
import { readStatus } from "./status.ts";

const DS_STATUS_SQL = path.join(path.dirname(fileURLToPath(import.meta.url)), "sql", "ds_status.sql");

describe("ds_status", () => {
  let db: Db;

  beforeEach(async () => {
    db = await openDb(":memory:");
    await createPublicTables(db);
    await db.run("CREATE TABLE feat_packages AS SELECT * FROM packages");
    await rawTable(db, "raw_github_repos", { "2026-10-31": 7, "2026-11-01": 6 });
    await rawTable(db, "raw_github_activity", { "2026-11-01": 2 });
    await rawTable(db, "raw_github_stars", { "2026-11-01": 30 });
    await rawTable(db, "raw_pypi_projects", { "2026-10-30": 3 });
    await rawTable(db, "raw_pypi_downloads", { "2026-11-01": 3 });
    await rawTable(db, "raw_npm_packages", { "2026-11-01": 2 });
    await rawTable(db, "raw_npm_downloads", { "2026-10-31": 5 });
    await rawTable(db, "raw_dockerhub_repos", { "2026-11-01": 1, "2026-11-02": 4 });
    await rawTable(db, "raw_hf_models", {});
    await rawTable(db, "raw_hn_posts", { "2026-11-01": 1 });
    await rawTable(db, "raw_arxiv_papers", { "2026-11-01": 2 });
    await db.run(`SET VARIABLE run_date = DATE '${FIXTURE_RUN_DATE}'`);
    await runSqlFile(db, DS_STATUS_SQL);
  });

  afterEach(() => db.close());

  it("describes tables, repositories, domains, freshness and stale packages", async () => {
    expect(await readStatus(db)).toEqual({
      run_date: "2026-11-01",
      repositories: 6,
      tables: [
        { name: "contributors", rows: 3 },
        { name: "labs", rows: 2 },
        { name: "packages", rows: 6 },
        { name: "papers", rows: 2 },
        { name: "posts", rows: 1 },
        { name: "projects", rows: 6 },
        { name: "releases", rows: 5 },
        { name: "snapshots", rows: 5 },
        { name: "transitions", rows: 4 },
      ],
      domains: [
        { domain: "agents", repositories: 2 },
        { domain: "ai-evals", repositories: 1 },
        { domain: "llm-inference", repositories: 1 },
        { domain: "rag", repositories: 1 },
        { domain: "vector-db", repositories: 1 },
      ],
      sources: [
        { source: "arxiv", latest_run_date: "2026-11-01", rows: 2, fresh: true, days_behind: 0 },
        // a night after the run date (a later run already happened) does not count
        { source: "dockerhub", latest_run_date: "2026-11-01", rows: 1, fresh: true, days_behind: 0 },
        { source: "github", latest_run_date: "2026-11-01", rows: 6, fresh: true, days_behind: 0 },
        // two raw tables: both of the latest night
        { source: "github_rest", latest_run_date: "2026-11-01", rows: 32, fresh: true, days_behind: 0 },
        { source: "hackernews", latest_run_date: "2026-11-01", rows: 1, fresh: true, days_behind: 0 },
        { source: "huggingface", latest_run_date: null, rows: 0, fresh: false, days_behind: null },
        // the latest of its two tables, and only that table's rows
        { source: "npm", latest_run_date: "2026-11-01", rows: 2, fresh: true, days_behind: 0 },
        { source: "pypi", latest_run_date: "2026-10-30", rows: 3, fresh: false, days_behind: 2 },
        { source: "pypistats", latest_run_date: "2026-11-01", rows: 3, fresh: true, days_behind: 0 },
      ],
      stale_packages: [
        { registry: "docker", packages: 1, stale: 0, stale_share: 0 },
        { registry: "npm", packages: 2, stale: 0, stale_share: 0 },
        { registry: "pypi", packages: 3, stale: 1, stale_share: 0.3333 },
      ],
    });
  });
});
