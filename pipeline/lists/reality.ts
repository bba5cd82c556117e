// The reality check: a public list's real projects (test/fixtures/reality/, best-of-ml-python as of 2025-06-26)
// rated by `projintel rate` and compared with the list's own judgements — its category (which domains a reader
// accepts for it) and its projectrank — and with what a user knows of abandoned projects and active flagships.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseIsoDay } from "../../core/clock.ts";
import { parseCsv } from "./csv.ts";
import { type Rating, rateRepos } from "./rate.ts";
import { parseRateInput, type RateRow } from "./rate-input.ts";
import {
  type Disagreement,
  PAIR_KINDS,
  type PairAgreement,
  REALITY_LIST,
  REALITY_RULES,
  type RealityFigures,
  TIERS,
} from "./reality-check.ts";

export interface RealityProject extends Rating {
  category: string;
  projectrank: number;
  accepted: string[] | null;
  stars: number;
  downloads_monthly: number;
  pypi_downloads_monthly: number;
  days_since_push: number | null;
}

const pairSchema = z.object({
  a: z.string(),
  b: z.string(),
  better: z.string(),
  kind: z.enum(PAIR_KINDS),
  confidence: z.string(),
  reason: z.string(),
});
export type ExpertPair = z.infer<typeof pairSchema>;

/** The expert pairs of a JSON-lines file (the list's half: REALITY_LIST.pairs_file), each checked. */
export function readExpertPairs(file: string = REALITY_LIST.pairs_file): ExpertPair[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => {
      if (line.trim() === "") return [];
      const parsed = pairSchema.safeParse(JSON.parse(line));
      if (!parsed.success || ![parsed.data.a, parsed.data.b].includes(parsed.data.better)) {
        throw new Error(
          `${file} line ${i + 1}: not a pair {a, b, better (a or b), kind, confidence, reason}`,
        );
      }
      return [parsed.data];
    });
}

const categoriesSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** The accepted domains of each judged category (the file's "note" is not a category). */
export function readCategoryDomains(file: string = REALITY_LIST.categories_file): Map<string, string[]> {
  const parsed = categoriesSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  return new Map(Object.entries(parsed).flatMap(([k, v]) => (Array.isArray(v) ? [[k, v]] : [])));
}

/** Rates the list (the judgements left out of what rate reads) and pairs each rating with its judgements. */
export async function rateReality(file: string = REALITY_LIST.file): Promise<RealityProject[]> {
  const text = readFileSync(file, "utf8");
  const input = parseRateInput(text, file);
  if (input.problems.length > 0) {
    throw new Error(`${file}: ${input.problems.map((p) => `line ${p.line}: ${p.reason}`).join("; ")}`);
  }
  const [head, ...records] = parseCsv(text);
  const col = (name: string) => head?.cells.indexOf(name) ?? -1;
  const judged = new Map(
    records.map((r) => [
      r.line,
      { category: r.cells[col("category")] ?? "", rank: Number(r.cells[col("projectrank")]) },
    ]),
  );
  const accepted = readCategoryDomains();
  const rows = new Map<number, RateRow & { line: number }>(input.rows.map((r) => [r.line, r]));
  const asOf = parseIsoDay(REALITY_LIST.as_of) as Date;
  return (await rateRepos(input.rows, REALITY_LIST.as_of)).map((r) => {
    const row = rows.get(r.line) as RateRow;
    const j = judged.get(r.line) ?? { category: "", rank: Number.NaN };
    const pushed = row.pushed_at ? new Date(`${row.pushed_at.slice(0, 10)}T00:00:00Z`) : null;
    return {
      ...r,
      category: j.category,
      projectrank: j.rank,
      accepted: accepted.get(j.category) ?? null,
      stars: row.stars ?? 0,
      downloads_monthly: (row.pypi_downloads_monthly ?? 0) + (row.npm_downloads_monthly ?? 0),
      pypi_downloads_monthly: row.pypi_downloads_monthly ?? 0,
      days_since_push: pushed ? Math.round((asOf.getTime() - pushed.getTime()) / 86_400_000) : null,
    };
  });
}

/** Ranks 1..n, ties given their mean rank. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]?.[0] === order[i]?.[0]) j++;
    for (let k = i; k <= j; k++) out[order[k]?.[1] as number] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** Spearman's rank correlation: Pearson's over the ranks (ties at their mean rank). */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  const rx = ranks(xs);
  const ry = ranks(ys);
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  rx.forEach((x, i) => {
    const y = ry[i] as number;
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

export function isAbandoned(p: RealityProject): boolean {
  return (
    p.days_since_push !== null &&
    p.days_since_push > REALITY_RULES.abandoned_days &&
    p.downloads_monthly < REALITY_RULES.abandoned_max_downloads
  );
}

export function isActiveFlagship(p: RealityProject): boolean {
  return (
    p.days_since_push !== null &&
    p.days_since_push <= REALITY_RULES.flagship_pushed_days &&
    p.stars >= REALITY_RULES.flagship_min_stars &&
    p.downloads_monthly >= REALITY_RULES.flagship_min_downloads
  );
}

/** No push for REALITY_RULES.dead_days, whatever its downloads: a famous dead project included. */
export function isDead(p: RealityProject): boolean {
  return p.days_since_push !== null && p.days_since_push > REALITY_RULES.dead_days;
}

/** Pushed within popular_pushed_days with at least popular_min_pypi_downloads PyPI downloads a month. */
export function isPopularActive(p: RealityProject): boolean {
  return (
    p.days_since_push !== null &&
    p.days_since_push <= REALITY_RULES.popular_pushed_days &&
    p.pypi_downloads_monthly >= REALITY_RULES.popular_min_pypi_downloads
  );
}

const share = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 1000);

/**
 * The share of expert pairs whose better project the score puts strictly higher, overall and by kind. A pair naming
 * a project not rated is an error: the pairs belong to the list rated.
 */
export function expertPairAgreement(
  projects: readonly RealityProject[],
  pairs: readonly ExpertPair[],
): PairAgreement {
  const byName = new Map(projects.map((p) => [p.full_name, p]));
  const scored = pairs.map((pair) => {
    const find = (name: string) => {
      const p = byName.get(name);
      if (!p) throw new Error(`expert pair ${pair.a} / ${pair.b}: ${name} is not on the list rated`);
      return p;
    };
    const better = find(pair.better);
    const other = find(pair.better === pair.a ? pair.b : pair.a);
    return { pair, better, other, agrees: better.quality_score > other.quality_score };
  });
  const kinds = Object.fromEntries(
    PAIR_KINDS.map((kind) => {
      const of = scored.filter((s) => s.pair.kind === kind);
      return [kind, { pairs: of.length, agreement: share(of.filter((s) => s.agrees).length, of.length) }];
    }),
  ) as PairAgreement["by_kind"];
  return {
    pairs: scored.length,
    agreement: share(scored.filter((s) => s.agrees).length, scored.length),
    by_kind: kinds,
    disagreeing: scored
      .filter((s) => !s.agrees)
      .map((s) => ({
        better: s.better.full_name,
        other: s.other.full_name,
        kind: s.pair.kind,
        scores: [s.better.quality_score, s.other.quality_score] as [number, number],
      })),
  };
}

/** The check's figures, shares rounded to 0.1% (Spearman to 0.001). */
export function realityFigures(
  projects: readonly RealityProject[],
  pairs: readonly ExpertPair[] = readExpertPairs(),
): RealityFigures {
  const judged = projects.filter((p) => p.accepted);
  const agreeing = judged.filter((p) => p.accepted?.includes(p.domain));
  const abandoned = projects.filter(isAbandoned);
  const flagships = projects.filter(isActiveFlagship);
  const dead = projects.filter(isDead);
  const popular = projects.filter(isPopularActive);
  const tiers = Object.fromEntries(
    TIERS.map((t) => [t, share(projects.filter((p) => p.quality_tier === t).length, projects.length)]),
  ) as RealityFigures["tiers"];
  return {
    list: REALITY_LIST.name,
    as_of: REALITY_LIST.as_of,
    projects: projects.length,
    judged: judged.length,
    domain_agreement: share(agreeing.length, judged.length),
    unclassified: projects.filter((p) => p.rule.startsWith("fallback")).length,
    spearman_projectrank:
      Math.round(
        spearman(
          projects.map((p) => p.quality_score),
          projects.map((p) => p.projectrank),
        ) * 1000,
      ) / 1000,
    abandoned: abandoned.length,
    abandoned_below_established: share(
      abandoned.filter((p) => p.quality_tier === "emerging" || p.quality_tier === "experimental").length,
      abandoned.length,
    ),
    flagships: flagships.length,
    flagships_established: share(
      flagships.filter((p) => p.quality_tier === "verified" || p.quality_tier === "established").length,
      flagships.length,
    ),
    dead: dead.length,
    dead_experimental: share(dead.filter((p) => p.quality_tier === "experimental").length, dead.length),
    dead_established: share(
      dead.filter((p) => p.quality_tier === "verified" || p.quality_tier === "established").length,
      dead.length,
    ),
    popular: popular.length,
    popular_verified: share(popular.filter((p) => p.quality_tier === "verified").length, popular.length),
    expert_pairs: expertPairAgreement(projects, pairs),
    tiers,
  };
}

/** The projects whose percentile ranks by quality_score and by projectrank differ most, largest first. */
export function largestDisagreements(projects: readonly RealityProject[], n = 10): Disagreement[] {
  const pct = (r: number[]) => r.map((x) => Math.round((100 * (x - 1)) / Math.max(1, projects.length - 1)));
  const ours = pct(ranks(projects.map((p) => p.quality_score)));
  const theirs = pct(ranks(projects.map((p) => p.projectrank)));
  return projects
    .map((p, i) => ({
      full_name: p.full_name,
      quality_score: p.quality_score,
      quality_tier: p.quality_tier,
      projectrank: p.projectrank,
      score_percentile: ours[i] as number,
      projectrank_percentile: theirs[i] as number,
      components: [p.maintenance_score, p.adoption_score, p.maturity_score, p.community_score] as [
        number,
        number,
        number,
        number,
      ],
      stars: p.stars,
      downloads_monthly: p.downloads_monthly,
      days_since_push: p.days_since_push,
    }))
    .sort(
      (a, b) =>
        Math.abs(b.score_percentile - b.projectrank_percentile) -
          Math.abs(a.score_percentile - a.projectrank_percentile) || a.full_name.localeCompare(b.full_name),
    )
    .slice(0, n);
}
