// The score SQL over a small hand-made warehouse: exact components, scores, tiers, classification and carry-forward.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb, sqlLiteral } from "./core/db.ts";
import { silentLogger } from "./core/log.ts";
import { ensureRawTables, score } from "./score.ts";

const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata");

async function loadNdjson(db: Db, table: string, file: string) {
  await db.run(
    `INSERT INTO ${table} BY NAME SELECT * FROM read_json_auto(${sqlLiteral(path.join(testdata, file))})`,
  );
}

describe("score stage", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb(":memory:");
    await ensureRawTables(db);
    await loadNdjson(db, "raw_github_repos", "score-raw-github.ndjson");
    await loadNdjson(db, "raw_pypi_projects", "score-raw-pypi.ndjson");
    await loadNdjson(db, "raw_pypi_downloads", "score-raw-downloads.ndjson");
  });
  afterAll(() => db.close());

  it("computes exact components, scores and tiers", async () => {
    const report = await score({ db, runDate: "2026-11-20", logger: silentLogger });
    expect(report).toMatchObject({ run_date: "2026-11-20", repos: 5, stale: 1 });
    expect(report.by_tier).toEqual({ emerging: 1, established: 1, experimental: 2, verified: 1 });
    const rows = await db.all(
      `SELECT full_name, slug, domain, stack_layer, pypi_package, downloads_monthly, maintenance_score,
              adoption_score, maturity_score, community_score, quality_score, quality_tier, is_stale
       FROM score_quality WHERE node_id <> 'R_E' ORDER BY quality_score DESC`,
    );
    expect(rows).toEqual([
      {
        full_name: "acme/ragkit",
        slug: "acme--ragkit",
        domain: "rag",
        stack_layer: "orchestration",
        pypi_package: "ragkit",
        downloads_monthly: 10_000_000,
        maintenance_score: 25,
        adoption_score: 25,
        maturity_score: 25,
        community_score: 25,
        quality_score: 100,
        quality_tier: "verified",
        is_stale: false,
      },
      {
        full_name: "Dept/DStore",
        slug: "dept--dstore",
        domain: "mlops",
        stack_layer: "infra",
        pypi_package: "dstore",
        downloads_monthly: 1_000_000,
        maintenance_score: 0,
        adoption_score: 22,
        maturity_score: 25,
        community_score: 23,
        quality_score: 70,
        quality_tier: "established",
        is_stale: true,
      },
      {
        full_name: "mid/vecstore",
        slug: "mid--vecstore",
        domain: "vector-db",
        stack_layer: "data",
        pypi_package: null,
        downloads_monthly: 0,
        maintenance_score: 18,
        adoption_score: 0,
        maturity_score: 12,
        community_score: 14,
        quality_score: 44,
        quality_tier: "emerging",
        is_stale: false,
      },
      {
        full_name: "solo/tiny-agent",
        slug: "solo--tiny-agent",
        domain: "agents",
        stack_layer: "orchestration",
        pypi_package: null,
        downloads_monthly: 0,
        maintenance_score: 2,
        adoption_score: 0,
        maturity_score: 0,
        community_score: 0,
        quality_score: 2,
        quality_tier: "experimental",
        is_stale: false,
      },
    ]);
  });

  it("classifies by topics, and by the words of name and description when topics say nothing", async () => {
    const rows = await db.all(
      "SELECT node_id, domain, subcategory, stack_layer, rule FROM feat_classification ORDER BY node_id",
    );
    expect(rows).toEqual([
      { node_id: "R_A", domain: "rag", subcategory: null, stack_layer: "orchestration", rule: "topics: rag" },
      {
        node_id: "R_B",
        domain: "agents",
        subcategory: null,
        stack_layer: "orchestration",
        rule: "topics: agents",
      },
      {
        node_id: "R_C",
        domain: "vector-db",
        subcategory: null,
        stack_layer: "data",
        rule: "topics: vector-database",
      },
      { node_id: "R_D", domain: "mlops", subcategory: null, stack_layer: "infra", rule: "topics: mlops" },
      {
        node_id: "R_E",
        domain: "vector-db",
        subcategory: null,
        stack_layer: "data",
        rule: "keywords: hnsw, vector-database",
      },
    ]);
  });

  it("explains every component by its parts", async () => {
    const [c] = await db.all(
      `SELECT m_commits, m_last_commit, m_release, m_issues, t_age, t_releases, t_stable_version, t_license, t_docs,
              c_stars, c_forks, c_watchers FROM score_components WHERE node_id = 'R_C'`,
    );
    expect(c).toEqual({
      m_commits: 6,
      m_last_commit: 5,
      m_release: 4,
      m_issues: 3,
      t_age: 4,
      t_releases: 3,
      t_stable_version: 0,
      t_license: 4,
      t_docs: 1,
      c_stars: 7,
      c_forks: 4,
      c_watchers: 3,
    });
  });

  it("scores an earlier date from the history known then", async () => {
    const report = await score({ db, runDate: "2026-11-18", logger: silentLogger });
    expect(report).toMatchObject({ repos: 1, stale: 0 });
    const [d] = await db.all("SELECT description, community_score FROM score_quality");
    expect(d).toEqual({ description: "old row, superseded", community_score: 3 });
  });

  it("fails with a hint when there is nothing to score", async () => {
    await expect(score({ db, runDate: "2020-01-01", logger: silentLogger })).rejects.toMatchObject({
      message: expect.stringMatching(/no repositories/),
      hint: expect.stringMatching(/projintel collect/),
    });
  });
});
