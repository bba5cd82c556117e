// The reality check as a test: 426 real projects of best-of-ml-python (2025-06-26, test/fixtures/reality/) rated by
// `projintel rate` must agree with the list's categories, rank like its projectrank, keep abandoned projects below
// established and active flagships at established or above; and bench/results/reality-check.json, which the
// methodology quotes, must hold exactly these figures (re-measure: npm run bench -- reality).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../../schemas/enums.ts";
import {
  expertPairAgreement,
  isAbandoned,
  isActiveFlagship,
  isDead,
  isPopularActive,
  largestDisagreements,
  type RealityProject,
  rateReality,
  readExpertPairs,
  realityFigures,
  spearman,
} from "./reality.ts";
import {
  REALITY_BARS,
  type RealityFigures,
  readRealityCheck,
  realityReadmeSummary,
} from "./reality-check.ts";

let projects: RealityProject[];
let figures: RealityFigures;
beforeAll(async () => {
  projects = await rateReality();
  figures = realityFigures(projects);
});

describe("spearman", () => {
  it("is 1 for the same order, -1 for the reverse, and ranks ties at their mean", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // ranks [1.5, 1.5, 3] and [1, 2, 3]: covariance 1, variances 0.5 and 2
    expect(spearman([5, 5, 7], [1, 2, 3])).toBeCloseTo(Math.sqrt(3) / 2, 12);
  });
});

describe("expertPairAgreement", () => {
  const project = (full_name: string, quality_score: number) =>
    ({ full_name, quality_score }) as RealityProject;
  const pair = (a: string, b: string, kind: "close" | "standard") => ({
    a,
    b,
    better: a,
    kind,
    confidence: "high",
    reason: "test",
  });

  it("counts a pair only when the better project scores strictly higher, overall and by kind", () => {
    const rated = [project("o/a", 70), project("o/b", 60), project("o/c", 60), project("o/d", 80)];
    const got = expertPairAgreement(rated, [
      pair("o/a", "o/b", "close"),
      pair("o/b", "o/c", "close"),
      pair("o/a", "o/d", "standard"),
    ]);
    expect(got.pairs).toBe(3);
    expect(got.agreement).toBe(0.333);
    expect(got.by_kind.close).toEqual({ pairs: 2, agreement: 0.5 });
    expect(got.by_kind.standard).toEqual({ pairs: 1, agreement: 0 });
    expect(got.by_kind["dead-vs-living"]).toEqual({ pairs: 0, agreement: 0 });
    expect(got.disagreeing).toEqual([
      { better: "o/b", other: "o/c", kind: "close", scores: [60, 60] },
      { better: "o/a", other: "o/d", kind: "standard", scores: [70, 80] },
    ]);
  });

  it("refuses a pair naming a project the list does not hold", () => {
    expect(() => expertPairAgreement([project("o/a", 1)], [pair("o/a", "o/zz", "close")])).toThrow(
      "expert pair o/a / o/zz: o/zz is not on the list rated",
    );
  });
});

describe("the reality check on best-of-ml-python (2025-06-26)", () => {
  it("rates all 426 projects, 374 of them in a judged category", () => {
    expect([figures.projects, figures.judged]).toEqual([426, 374]);
  });

  it("puts at least 85% of judged projects in a domain their category accepts", () => {
    expect(figures.domain_agreement).toBeGreaterThanOrEqual(REALITY_BARS.domain_agreement_min);
  });

  it("never falls back to a language-model domain: an unclassifiable project is ml-frameworks", () => {
    const fallen = projects.filter((p) => p.rule.startsWith("fallback"));
    expect(fallen.length).toBe(figures.unclassified);
    expect(new Set(fallen.map((p) => p.domain))).toEqual(new Set(["ml-frameworks"]));
    // the language-model tooling domains hold only projects that say they are about language models
    expect(
      projects
        .filter((p) => p.domain === "llm-tools" || p.domain === "llm-inference")
        .map((p) => `${p.full_name}: ${p.domain}`),
    ).toEqual(["BerriAI/litellm: llm-tools", "intel-analytics/BigDL: llm-inference"]);
    expect(projects.every((p) => (DOMAINS as readonly string[]).includes(p.domain))).toBe(true);
  });

  it("ranks like the list's projectrank: Spearman at least 0.7", () => {
    expect(figures.spearman_projectrank).toBeGreaterThanOrEqual(REALITY_BARS.spearman_min);
  });

  it("keeps at least 95% of abandoned projects (no push for 2 years, < 10,000 downloads a month) below established", () => {
    expect(figures.abandoned).toBeGreaterThan(0);
    expect(figures.abandoned_below_established).toBeGreaterThanOrEqual(
      REALITY_BARS.abandoned_below_established_min,
    );
    expect(projects.filter(isAbandoned).length).toBe(figures.abandoned);
  });

  it("tiers at least 90% of active flagships (pushed in 30 days, 10,000 stars, 1,000,000 downloads) established or verified", () => {
    expect(figures.flagships).toBeGreaterThan(0);
    expect(figures.flagships_established).toBeGreaterThanOrEqual(REALITY_BARS.flagships_established_min);
    expect(projects.filter(isActiveFlagship).length).toBe(figures.flagships);
  });

  it("reads the 80 expert pairs of this half, 25 + 25 + 15 + 15 by kind", () => {
    const pairs = readExpertPairs();
    expect(pairs.length).toBe(80);
    expect(figures.expert_pairs.by_kind).toMatchObject({
      "dead-vs-living": { pairs: 25 },
      standard: { pairs: 25 },
      "popularity-misleads": { pairs: 15 },
      close: { pairs: 15 },
    });
  });

  it("orders at least 90% of the expert pairs as the expert did", () => {
    expect(figures.expert_pairs.agreement).toBeGreaterThanOrEqual(REALITY_BARS.expert_pairs_min);
  });

  it("lets dead projects (no push for 2 years) fall: at least 85% experimental, none established or verified", () => {
    const dead = projects.filter(isDead);
    expect(dead.length).toBe(figures.dead);
    expect(figures.dead).toBeGreaterThan(100);
    expect(figures.dead_experimental).toBeGreaterThanOrEqual(REALITY_BARS.dead_experimental_min);
    expect(dead.filter((p) => p.quality_tier === "verified" || p.quality_tier === "established")).toEqual([]);
  });

  it("verifies at least 80% of active projects with 5,000,000 PyPI downloads a month, 0.x ones included", () => {
    const popular = projects.filter(isPopularActive);
    expect(popular.length).toBe(figures.popular);
    expect(figures.popular).toBeGreaterThan(20);
    expect(figures.popular_verified).toBeGreaterThanOrEqual(REALITY_BARS.popular_verified_min);
  });

  it("is what bench/results/reality-check.json holds, the figures the methodology quotes", () => {
    const stored = readRealityCheck();
    expect(stored.figures).toEqual(figures);
    expect(stored.bars).toEqual(REALITY_BARS);
    expect(stored.disagreements).toEqual(largestDisagreements(projects));
    expect(stored.rate_1000_rows_ms).toBeGreaterThan(0);
  });

  it("is summarised in docs/analytics.md from that file", () => {
    const readme = readFileSync(new URL("../../docs/analytics.md", import.meta.url), "utf8");
    expect(readme).toContain(realityReadmeSummary());
  });
});
