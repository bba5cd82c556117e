// How scores spread over a scored world: tiers (count and share), Spearman's correlation of score with stars and
// the median score of the top 1% most-starred active projects with a package, from a warehouse or public database.
// Usage: npx tsx bench/score-distribution.ts <warehouse.duckdb | public/<date>.duckdb> (the demo: var/warehouse.duckdb)
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDb } from "../core/db.ts";

const SQL = path.join(path.dirname(fileURLToPath(import.meta.url)), "score-distribution.sql");
/** The most-starred share whose active projects with a package are compared (1%). */
export const TOP_SHARE = 0.01;
/** A project is active with a commit (or, unknown, a push) within this many days. */
export const ACTIVE_DAYS = 365;

export interface ScoreDistribution {
  run_date: string;
  repos: number;
  tiers: Record<string, { n: number; pct: number }>;
  spearman_score_stars: number;
  top_active_with_package: number;
  top_median_score: number | null;
  score_quantiles: number[];
}

/** Reads the `projects` table of `file` (opened read-only) and measures its score distribution. */
export async function scoreDistribution(file: string): Promise<ScoreDistribution> {
  const db = await openDb(file, { readOnly: true });
  try {
    await db.run(`SET VARIABLE top_share = ${TOP_SHARE}; SET VARIABLE active_days = ${ACTIVE_DAYS};`);
    const [row] = await db.all(await readFile(SQL, "utf8"));
    if (!row)
      throw new Error(`${file} answered no row: it needs a scored projects table (run projintel score).`);
    const counts = row.tiers as Record<string, number>;
    const repos = row.repos as number;
    const tiers = Object.fromEntries(
      Object.entries(counts).map(([t, n]) => [t, { n, pct: Math.round((10_000 * n) / repos) / 100 }]),
    );
    return { ...(row as unknown as ScoreDistribution), tiers };
  } finally {
    db.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("Usage: npx tsx bench/score-distribution.ts <warehouse or public .duckdb file>\n");
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await scoreDistribution(file), null, 2)}\n`);
}
