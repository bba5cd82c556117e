// `projintel rate`: scores and classifies repositories given by their figures, through the nightly's own SQL. The
// input becomes feat_repos rows (pipeline/sql/rate/feat_repos.sql) in an in-memory DuckDB; from there the same
// classification and score files a night runs produce the tier, components and explanation a project detail shows.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDb, runSqlFile } from "../../core/db.ts";
import { ensureRawTables, runTransform, setScoreVariables, TRANSFORMS } from "../score.ts";
import type { RateRow } from "./rate-input.ts";

const RATE_SQL = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "sql",
  "rate",
  "feat_repos.sql",
);

/** The nightly transforms a rating runs: empty feat_repos first (its columns), then classification and score (the
 * nightly's own list, from classify_input to alternatives). */
const EMPTY_FIRST = ["feat_packages", "feat_repos"] as const;
const THEN = TRANSFORMS.slice(TRANSFORMS.indexOf("classify_input"), TRANSFORMS.indexOf("alternatives") + 1);

/** The score's explanation as a project detail gives it (score_explanations.sql). */
export interface ScoreExplanation {
  [component: string]: unknown;
  fallbacks: string[];
}

export interface Rating {
  line: number;
  full_name: string;
  quality_score: number;
  quality_tier: string;
  maintenance_score: number;
  adoption_score: number;
  maturity_score: number;
  community_score: number;
  domain: string;
  subcategory: string | null;
  stack_layer: string;
  rule: string;
  explanation: ScoreExplanation;
  /** The other rated repositories that do the same job, best first (alternatives.sql), by owner/name. */
  alternatives: string[];
}

/** Rates the rows as of `asOf` (YYYY-MM-DD: the day the figures were read), in input order. */
export async function rateRepos(
  rows: readonly (RateRow & { line: number })[],
  asOf: string,
): Promise<Rating[]> {
  if (rows.length === 0) return [];
  const db = await openDb(":memory:");
  try {
    await ensureRawTables(db);
    await setScoreVariables(db, asOf);
    for (const table of EMPTY_FIRST) await runTransform(db, table);
    await db.run("CREATE TEMP TABLE rate_json AS SELECT $1::VARCHAR AS doc", [JSON.stringify(rows)]);
    await runSqlFile(db, RATE_SQL);
    for (const table of THEN) await runTransform(db, table);
    const rated = await db.all<
      Omit<Rating, "explanation" | "alternatives"> & { explanation: string; alternatives: string }
    >(
      `SELECT CAST(substr(q.node_id, 6) AS INTEGER) AS line, q.full_name, q.quality_score, q.quality_tier,
         q.maintenance_score, q.adoption_score, q.maturity_score, q.community_score, q.domain, q.subcategory,
         q.stack_layer, c.rule, e.explanation::VARCHAR AS explanation,
         to_json(coalesce(a.names, []))::VARCHAR AS alternatives
       FROM score_quality q JOIN classifications c USING (node_id) JOIN score_explanations e USING (node_id)
       LEFT JOIN (SELECT node_id, list(full_name ORDER BY position) AS names FROM alternatives GROUP BY node_id) a
         USING (node_id)
       ORDER BY line`,
    );
    return rated.map((r) => ({
      ...r,
      explanation: JSON.parse(r.explanation) as ScoreExplanation,
      alternatives: JSON.parse(r.alternatives) as string[],
    }));
  } finally {
    db.close();
  }
}
