// The reality check as a test: 426 real projects of best-of-ml-python (2025-06-26, test/fixtures/reality/) rated by
// `projintel rate` must agree with the list's categories, rank like its projectrank, keep abandoned projects below
// established and active flagships at established or above; and bench/results/reality-check.json, which the
// methodology quotes, must hold exactly these figures (re-measure: npm run bench -- reality).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../schemas/enums.ts";
import {
  isAbandoned,
  isActiveFlagship,
  largestDisagreements,
  type RealityProject,
  rateReality,
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

  it("is what bench/results/reality-check.json holds, the figures the methodology quotes", () => {
    const stored = readRealityCheck();
    expect(stored.figures).toEqual(figures);
    expect(stored.bars).toEqual(REALITY_BARS);
    expect(stored.disagreements).toEqual(largestDisagreements(projects));
    expect(stored.rate_1000_rows_ms).toBeGreaterThan(0);
  });

  it("is summarised in docs/analytics.md from that file", () => {
    const readme = readFileSync(new URL("../docs/analytics.md", import.meta.url), "utf8");
    expect(readme).toContain(realityReadmeSummary());
  });
});
