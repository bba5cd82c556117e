// The alternatives table (pipeline/sql/alternatives.sql) at the scale of the world: BENCH_ALTERNATIVES_REPOS
// (220,000) synthetic tracked repositories in 30 domains of 7 subcategories (a fifth with none), each with 2 topics of
// 10 that every domain shares, 3 of its domain's 300 (a few common, most rare) and 8 dependencies of 2,000 (numpy-like
// ones in most), built in a warehouse with the nightly's memory limit (512 MB); the transform's wall time, median of 3.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDb } from "../core/db.ts";
import { runTransform, setScoreVariables } from "../pipeline/score.ts";

const SYNTHETIC = `
CREATE OR REPLACE TABLE score_quality AS
SELECT
  'R_' || i AS node_id, 'o' || i || '/r' || i AS full_name, 'o' || i || '--r' || i AS slug,
  'd' || (i % 30) AS domain,
  CASE WHEN hash(i, 'sub') % 5 = 0 THEN NULL ELSE 'd' || (i % 30) || '-s' || (hash(i) % 7) END AS subcategory,
  (hash(i, 'score') % 101)::INTEGER AS quality_score, 'emerging' AS quality_tier,
  (hash(i, 'stars') % 100000)::INTEGER AS stars
FROM range(getvariable('repos')) AS t(i);
CREATE OR REPLACE TABLE feat_repos AS
SELECT
  'R_' || i AS node_id,
  list_concat(
    ['python', 'machine-learning'],
    list_transform(range(3), k -> 'd' || (i % 30) || '-t' || floor(pow((hash(i, k) % 1000) / 1000.0, 3) * 300)::INTEGER)
  ) AS topics,
  list_transform(range(8), k -> 'dep' || floor(pow((hash(i, k, 'dep') % 1000) / 1000.0, 4) * 2000)::INTEGER) AS dependencies,
  hash(i, 'archived') % 50 = 0 AS is_archived, false AS is_fork
FROM range(getvariable('repos')) AS t(i);
`;

export async function benchAlternatives() {
  const repos = Number(process.env.BENCH_ALTERNATIVES_REPOS ?? 220_000);
  // a file, as the warehouse is: DuckDB spills beside it past the memory limit
  const dir = await mkdtemp(path.join(os.tmpdir(), "projintel-alternatives-"));
  const db = await openDb(path.join(dir, "warehouse.duckdb"), {
    settings: { memory_limit: "512MB", preserve_insertion_order: "false" },
  });
  try {
    await setScoreVariables(db, "2026-11-20");
    await db.run(`SET VARIABLE repos = ${repos};${SYNTHETIC}`);
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await runTransform(db, "alternatives");
      runs.push(Math.round(performance.now() - started));
    }
    const [facts] = await db.all<{ with: number; listed: number; by_topic: number }>(
      `SELECT count(DISTINCT node_id)::INTEGER AS with, count(*)::INTEGER AS listed,
         count(*) FILTER (WHERE match = 'shared_topics_or_dependencies')::INTEGER AS by_topic
       FROM alternatives`,
    );
    return {
      repos,
      memory_limit: "512MB",
      runs_ms: runs,
      median_ms: [...runs].sort((a, b) => a - b)[1],
      repos_with_alternatives: facts?.with,
      alternatives_listed: facts?.listed,
      listed_by_shared_topic_or_dependency: facts?.by_topic,
    };
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
