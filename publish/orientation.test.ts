// The status document's sources from the warehouse's own facts (pipeline/sql/ds_status.sql over raw tables): a source
// with rows on the run date is fresh, one whose last rows are older is behind, and one with no row on record (as a
// release built from a list's history has no Hacker News, arXiv or Hugging Face rows) is absent, with no invented 0.
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDb, runSqlFile } from "../core/db.ts";
import { createPublicTables, FIXTURE_RUN_DATE, rawTable } from "../pipeline/public-testing.ts";
import { statusSchema } from "../schemas/index.ts";
import { statusDocument } from "./orientation.ts";

const DS_STATUS_SQL = fileURLToPath(new URL("../pipeline/sql/ds_status.sql", import.meta.url));

describe("the status document's sources", () => {
  let db: Db;

  beforeEach(async () => {
    db = await openDb(":memory:");
    await createPublicTables(db);
    await db.run("CREATE TABLE feat_packages AS SELECT * FROM packages");
    // GitHub and the registries as a list's release gets them; no Hacker News, arXiv or Hugging Face row ever
    await rawTable(db, "raw_github_repos", { "2026-10-31": 7, "2026-11-01": 6 });
    await rawTable(db, "raw_github_activity", { "2026-11-01": 2 });
    await rawTable(db, "raw_github_stars", {});
    await rawTable(db, "raw_pypi_projects", { "2026-10-30": 3 });
    await rawTable(db, "raw_pypi_downloads", { "2026-11-01": 3 });
    await rawTable(db, "raw_npm_packages", { "2026-11-01": 2 });
    await rawTable(db, "raw_npm_downloads", {});
    await rawTable(db, "raw_dockerhub_repos", { "2026-11-01": 1 });
    await rawTable(db, "raw_hf_models", {});
    await rawTable(db, "raw_hn_posts", {});
    // rows from after the run date are not on record for it
    await rawTable(db, "raw_arxiv_papers", { "2026-11-02": 4 });
    await db.run(`SET VARIABLE run_date = DATE '${FIXTURE_RUN_DATE}'`);
    await runSqlFile(db, DS_STATUS_SQL);
  });

  afterEach(() => db.close());

  it("says fresh, behind or absent; an absent source has no rows to count (null, not 0)", async () => {
    const status = await statusDocument(db, {
      runDate: FIXTURE_RUN_DATE,
      releaseId: "2026-11-01_20261102T031500Z",
    });
    expect(statusSchema.parse(status)).toEqual(status);
    expect(status.sources).toEqual([
      {
        source: "arxiv",
        state: "absent",
        latest_run_date: null,
        rows: null,
        fresh: false,
        days_behind: null,
      },
      {
        source: "dockerhub",
        state: "fresh",
        latest_run_date: "2026-11-01",
        rows: 1,
        fresh: true,
        days_behind: 0,
      },
      {
        source: "github",
        state: "fresh",
        latest_run_date: "2026-11-01",
        rows: 6,
        fresh: true,
        days_behind: 0,
      },
      {
        source: "github_rest",
        state: "fresh",
        latest_run_date: "2026-11-01",
        rows: 2,
        fresh: true,
        days_behind: 0,
      },
      {
        source: "hackernews",
        state: "absent",
        latest_run_date: null,
        rows: null,
        fresh: false,
        days_behind: null,
      },
      {
        source: "huggingface",
        state: "absent",
        latest_run_date: null,
        rows: null,
        fresh: false,
        days_behind: null,
      },
      { source: "npm", state: "fresh", latest_run_date: "2026-11-01", rows: 2, fresh: true, days_behind: 0 },
      {
        source: "pypi",
        state: "behind",
        latest_run_date: "2026-10-30",
        rows: 3,
        fresh: false,
        days_behind: 2,
      },
      {
        source: "pypistats",
        state: "fresh",
        latest_run_date: "2026-11-01",
        rows: 3,
        fresh: true,
        days_behind: 0,
      },
    ]);
    // what a summary of the release says of it
    const absent = status.sources.filter((s) => s.state === "absent").map((s) => s.source);
    expect(`not collected: ${absent.join(", ")}`).toBe("not collected: arxiv, hackernews, huggingface");
  });

  it("refuses an absent source that counts rows, and a source that is neither absent nor dated", () => {
    const line = { source: "hackernews", state: "absent", latest_run_date: null, rows: null, fresh: false };
    const doc = (source: object) => ({
      run_date: FIXTURE_RUN_DATE,
      release_id: "r",
      repositories: 0,
      tables: [],
      domains: [],
      sources: [{ days_behind: null, ...source }],
      stale_packages: [],
    });
    expect(statusSchema.safeParse(doc(line)).success).toBe(true);
    expect(statusSchema.safeParse(doc({ ...line, rows: 0 })).success).toBe(false);
    expect(statusSchema.safeParse(doc({ ...line, state: "fresh" })).success).toBe(false);
  });
});
