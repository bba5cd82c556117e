// What the reality check measures and what it found, without the machinery that measures it (pipeline/lists/reality.ts):
// the list, the rules and bars it counts with, and the result `npm run bench -- reality` writes to
// bench/results/reality-check.json, which the methodology document and /api/v1/methodology quote.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REALITY_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "test",
  "fixtures",
  "reality",
);

/** The list, the day its figures were read, and where it comes from. */
export const REALITY_LIST = {
  name: "best-of-ml-python",
  source: "https://github.com/ml-tooling/best-of-ml-python (history/2025-06-26_projects.csv)",
  license: "CC-BY-SA-4.0",
  as_of: "2025-06-26",
  file: path.join(REALITY_DIR, "best-of-ml-python-2025-06-26.csv"),
  categories_file: path.join(REALITY_DIR, "category-domains.json"),
  /** Pairs of its projects with the one an expert would rather depend on (test/fixtures/reality/README.md). */
  pairs_file: path.join(REALITY_DIR, "expert-pairs-A.jsonl"),
} as const;

/** The kinds of expert pair, as the pairs file names them. */
export const PAIR_KINDS = ["dead-vs-living", "standard", "popularity-misleads", "close"] as const;

/** What a user knows of real projects, as thresholds the check counts with. */
export const REALITY_RULES = {
  /** Abandoned: no push for this many days… */
  abandoned_days: 730,
  /** …and fewer monthly downloads (PyPI + npm) than this. */
  abandoned_max_downloads: 10_000,
  /** Active flagship: pushed within this many days… */
  flagship_pushed_days: 30,
  /** …with at least this many stars… */
  flagship_min_stars: 10_000,
  /** …and at least this many monthly downloads (PyPI + npm). */
  flagship_min_downloads: 1_000_000,
  /** Dead: no push for this many days, whatever its downloads (a famous project included). */
  dead_days: 730,
  /** Popular and active: pushed within this many days… */
  popular_pushed_days: 90,
  /** …with at least this many PyPI downloads a month. */
  popular_min_pypi_downloads: 5_000_000,
} as const;

/** What the check asserts (pipeline/lists/reality.test.ts), quoted by the methodology beside the figures. */
export const REALITY_BARS = {
  domain_agreement_min: 0.85,
  spearman_min: 0.7,
  abandoned_below_established_min: 0.95,
  flagships_established_min: 0.9,
  /** Of dead projects, at least this share experimental… */
  dead_experimental_min: 0.85,
  /** …and none established or verified. */
  dead_established_max: 0,
  popular_verified_min: 0.8,
  /** Expert pairs the score orders as the expert did (a tie is not agreement). */
  expert_pairs_min: 0.9,
} as const;

export const TIERS = ["verified", "established", "emerging", "experimental"] as const;

export interface RealityFigures {
  list: string;
  as_of: string;
  projects: number;
  judged: number;
  domain_agreement: number;
  /** Projects the classification could not place (no domain signal at all), and where they went. */
  unclassified: number;
  spearman_projectrank: number;
  abandoned: number;
  abandoned_below_established: number;
  flagships: number;
  flagships_established: number;
  /** Projects with no push for REALITY_RULES.dead_days, the share experimental and the share established or above. */
  dead: number;
  dead_experimental: number;
  dead_established: number;
  /** Active projects with popular_min_pypi_downloads, the share verified. */
  popular: number;
  popular_verified: number;
  expert_pairs: PairAgreement;
  tiers: Record<(typeof TIERS)[number], number>;
}

/** How many expert pairs the score orders as the expert did: overall and by kind (shares to 0.1%). */
export interface PairAgreement {
  pairs: number;
  agreement: number;
  by_kind: Record<(typeof PAIR_KINDS)[number], { pairs: number; agreement: number }>;
  /** The pairs ordered otherwise (or tied): better first, with both scores. */
  disagreeing: { better: string; other: string; kind: string; scores: [number, number] }[];
}

export interface Disagreement {
  full_name: string;
  quality_score: number;
  quality_tier: string;
  projectrank: number;
  /** Percentile ranks (0–100) of our score and of projectrank on the list. */
  score_percentile: number;
  projectrank_percentile: number;
  components: [number, number, number, number];
  stars: number;
  downloads_monthly: number;
  days_since_push: number | null;
}

/** Where `npm run bench -- reality` keeps its result, which the methodology quotes. */
export const REALITY_CHECK_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "bench",
  "results",
  "reality-check.json",
);

export interface TierShares {
  repos: number;
  verified: number;
  established: number;
  emerging: number;
  experimental: number;
}

/** The reality check as the bench measured it: the list's figures, the bars, and the worlds' tiers beside them. */
export interface RealityCheck {
  list: { name: string; source: string; license: string; as_of: string };
  figures: RealityFigures;
  bars: typeof REALITY_BARS;
  /** Tier shares of the simulated worlds scored the same night (the demo's, and 220,000 when measured). */
  worlds: Record<string, TierShares>;
  rate_1000_rows_ms: number;
  disagreements: Disagreement[];
  measured_at: string;
}

export function readRealityCheck(file: string = REALITY_CHECK_FILE): RealityCheck {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as RealityCheck;
  } catch (error) {
    throw new Error(
      `Cannot read the reality check ${file}: ${(error as Error).message}. Run \`npm run bench -- reality\` to measure it.`,
    );
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A simulated world's tier share, to two decimals: its bars (verified 0.5–3%) sit where one decimal rounds across them. */
export const pctWorld = (x: number) => `${(100 * x).toFixed(2)}%`;

/** How a simulated world of the check is named in prose: `demo`, `at_220000` (the bench's keys). */
export function worldLabel(world: string): string {
  const size = /^at_(\d+)$/.exec(world)?.[1];
  return size ? `${Number(size).toLocaleString("en-US")}-repository world` : `${world} world`;
}

/** The reality check as the methodology states it: the list, what was measured against which bar, the tiers. */
export function realityCheckSection(check: RealityCheck = readRealityCheck()) {
  const f = check.figures;
  const r = REALITY_RULES;
  return {
    list: check.list,
    projects: f.projects,
    measured_at: check.measured_at,
    summary: `${f.projects} real machine-learning projects of ${check.list.name} (${check.list.source}, ${check.list.license}), with the figures the list recorded on ${check.list.as_of}, rated by \`projintel rate\` through the score SQL as of that day. The list's own judgements — its category and its projectrank — are never inputs; they are what the rating is checked against. The same bars hold on the other half of that list, which the rules were never tuned on.`,
    figures: [
      {
        figure: `domain in a domain the list's category accepts (${f.judged} projects in judged categories)`,
        value: pct(f.domain_agreement),
        bar: `≥ ${pct(check.bars.domain_agreement_min)}`,
      },
      {
        figure: "projects with no domain signal (given ml-frameworks, never a language-model domain)",
        value: String(f.unclassified),
        bar: "—",
      },
      {
        figure: "Spearman correlation of quality_score with projectrank",
        value: f.spearman_projectrank.toFixed(3),
        bar: `≥ ${check.bars.spearman_min}`,
      },
      {
        figure: `abandoned projects (no push for ${r.abandoned_days} days, < ${r.abandoned_max_downloads.toLocaleString("en-US")} downloads a month: ${f.abandoned}) below established`,
        value: pct(f.abandoned_below_established),
        bar: `≥ ${pct(check.bars.abandoned_below_established_min)}`,
      },
      {
        figure: `active flagships (pushed within ${r.flagship_pushed_days} days, ≥ ${r.flagship_min_stars.toLocaleString("en-US")} stars, ≥ ${r.flagship_min_downloads.toLocaleString("en-US")} downloads a month: ${f.flagships}) established or verified`,
        value: pct(f.flagships_established),
        bar: `≥ ${pct(check.bars.flagships_established_min)}`,
      },
      {
        figure: `dead projects (no push for ${r.dead_days} days, any downloads: ${f.dead}) experimental`,
        value: pct(f.dead_experimental),
        bar: `≥ ${pct(check.bars.dead_experimental_min)}`,
      },
      {
        figure: "dead projects established or verified",
        value: pct(f.dead_established),
        bar: `≤ ${pct(check.bars.dead_established_max)}`,
      },
      {
        figure: `popular active projects (pushed within ${r.popular_pushed_days} days, ≥ ${r.popular_min_pypi_downloads.toLocaleString("en-US")} PyPI downloads a month: ${f.popular}) verified`,
        value: pct(f.popular_verified),
        bar: `≥ ${pct(check.bars.popular_verified_min)}`,
      },
      {
        figure: `expert pairs ordered as the expert did (${f.expert_pairs.pairs} pairs; ${PAIR_KINDS.map((k) => `${k} ${pct(f.expert_pairs.by_kind[k].agreement)} of ${f.expert_pairs.by_kind[k].pairs}`).join(", ")})`,
        value: pct(f.expert_pairs.agreement),
        bar: `≥ ${pct(check.bars.expert_pairs_min)}`,
      },
    ],
    tiers: TIERS.map((tier) => ({
      tier,
      real_list: f.tiers[tier],
      ...Object.fromEntries(Object.entries(check.worlds).map(([world, t]) => [world, t[tier]])),
    })),
    worlds: Object.fromEntries(Object.entries(check.worlds).map(([world, t]) => [world, t.repos])),
  };
}

/** docs/analytics.md's summary of the reality check, generated from the stored result (pipeline/lists/reality.test.ts checks it). */
export function realityReadmeSummary(check: RealityCheck = readRealityCheck()): string {
  const f = check.figures;
  const worlds = Object.entries(check.worlds)
    .map(
      ([world, t]) =>
        `${worldLabel(world)} (${t.repos.toLocaleString("en-US")} projects) ${pctWorld(t.verified)} / ${pctWorld(t.established)} / ${pctWorld(t.emerging)} / ${pctWorld(t.experimental)}`,
    )
    .join("; ");
  return [
    `On ${f.projects} real projects of ${check.list.name} as of ${check.list.as_of} (measured ${check.measured_at}):`,
    `domain accepted for the list's category ${pct(f.domain_agreement)} of ${f.judged} judged (bar ${pct(check.bars.domain_agreement_min)});`,
    `${f.unclassified} without any domain signal, all ml-frameworks;`,
    `Spearman(quality_score, projectrank) ${f.spearman_projectrank.toFixed(3)} (bar ${check.bars.spearman_min});`,
    `abandoned projects below established ${pct(f.abandoned_below_established)} of ${f.abandoned} (bar ${pct(check.bars.abandoned_below_established_min)});`,
    `active flagships established or verified ${pct(f.flagships_established)} of ${f.flagships} (bar ${pct(check.bars.flagships_established_min)});`,
    `dead projects (no push for ${REALITY_RULES.dead_days} days) experimental ${pct(f.dead_experimental)} of ${f.dead} (bar ${pct(check.bars.dead_experimental_min)}), established or verified ${pct(f.dead_established)};`,
    `popular active projects verified ${pct(f.popular_verified)} of ${f.popular} (bar ${pct(check.bars.popular_verified_min)});`,
    `expert pairs ordered as the expert did ${pct(f.expert_pairs.agreement)} of ${f.expert_pairs.pairs} (bar ${pct(check.bars.expert_pairs_min)}).`,
    `Tiers verified / established / emerging / experimental: real list ${pct(f.tiers.verified)} / ${pct(f.tiers.established)} / ${pct(f.tiers.emerging)} / ${pct(f.tiers.experimental)};`,
    `${worlds}.`,
    `Rating 1,000 rows: ${(check.rate_1000_rows_ms / 1000).toFixed(2)} s.`,
  ].join(" ");
}
