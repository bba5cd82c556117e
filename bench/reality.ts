// `npm run bench -- reality`: the reality check (pipeline/lists/reality.ts) — the real best-of-ml-python list rated by
// `projintel rate` and judged against its categories, its projectrank, abandoned projects and active flagships —
// beside the tiers of the demo's simulated world (and of a 220,000-repository warehouse named by
// BENCH_REALITY_WORLD; BENCH_REALITY_DEMO names an already scored demo warehouse instead of running the demo), with
// the time to rate 1,000 rows. Written to bench/results/reality-check.json, which the
// methodology document and /api/v1/methodology quote.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeJsonAtomic } from "../core/files.ts";
import { rateRepos } from "../pipeline/lists/rate.ts";
import { parseRateInput } from "../pipeline/lists/rate-input.ts";
import { largestDisagreements, rateReality, realityFigures } from "../pipeline/lists/reality.ts";
import {
  REALITY_BARS,
  REALITY_CHECK_FILE,
  REALITY_LIST,
  type RealityCheck,
  readRealityCheck,
  type TierShares,
} from "../pipeline/lists/reality-check.ts";
import { median } from "./measure.ts";
import { runDemoPipeline } from "./pipeline.ts";
import { scoreDistribution } from "./score-distribution.ts";

/** Tier shares (0–1, to 0.1%) of a scored warehouse's projects. */
export async function worldTiers(warehouse: string): Promise<TierShares> {
  const d = await scoreDistribution(warehouse);
  // four decimals: a share near a bar (13 of 2,722 verified is 0.48%, the bar 0.5%) must not round across it
  const share = (tier: string) => Math.round(((d.tiers[tier]?.n ?? 0) / d.repos) * 10_000) / 10_000;
  return {
    repos: d.repos,
    verified: share("verified"),
    established: share("established"),
    emerging: share("emerging"),
    experimental: share("experimental"),
  };
}

/** Median wall time of rating 1,000 rows of the list (the rows repeated), three runs. */
async function rateThousandMs(): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const { rows } = parseRateInput(await readFile(REALITY_LIST.file, "utf8"));
  const thousand = Array.from({ length: 1000 }, (_, i) => ({ ...rows[i % rows.length], line: i + 2 }));
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await rateRepos(thousand as typeof rows, REALITY_LIST.as_of);
    runs.push(performance.now() - started);
  }
  return Math.round(median(runs));
}

export async function benchReality(
  options: { demo?: boolean; demoWarehouse?: string; world220k?: string } = {},
): Promise<RealityCheck> {
  const projects = await rateReality();
  const previous = existsSync(REALITY_CHECK_FILE) ? readRealityCheck().worlds : {};
  const worlds: Record<string, TierShares> = { ...previous };
  if (options.demoWarehouse) worlds.demo = await worldTiers(options.demoWarehouse);
  else if (options.demo ?? true) {
    const state = await mkdtemp(path.join(os.tmpdir(), "projintel-reality-"));
    try {
      const made = await runDemoPipeline(state);
      if (made.exit_code !== 0) throw new Error("the demo pipeline failed: no world to compare with");
      worlds.demo = await worldTiers(path.join(state, "warehouse.duckdb"));
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  }
  if (options.world220k) worlds.at_220000 = await worldTiers(options.world220k);
  const { file: _f, categories_file: _c, pairs_file: _p, ...list } = REALITY_LIST;
  const check: RealityCheck = {
    list,
    figures: realityFigures(projects),
    bars: REALITY_BARS,
    worlds,
    rate_1000_rows_ms: await rateThousandMs(),
    disagreements: largestDisagreements(projects),
    measured_at: new Date().toISOString().slice(0, 10),
  };
  await writeJsonAtomic(REALITY_CHECK_FILE, check);
  return check;
}
