// The classification on the reality check's real list (best-of-ml-python, the shared half): the domain its category
// accepts for at least 85% of every judged project, no project decided by a lone generic word, a single word deciding
// only as a term its domain lists as strong, and ml-frameworks holding frameworks and projects with no signal.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { TAXONOMY_FILE } from "../classify.ts";
import {
  type ClassificationFigures,
  classificationFigures,
  classificationSummary,
  classifyRealityList,
  decidingPhrases,
  isGenericWord,
  type ListedClassification,
} from "./classify-reality.ts";
import { REALITY_BARS } from "./reality-check.ts";

const taxonomy = JSON.parse(readFileSync(TAXONOMY_FILE, "utf8")) as {
  generic: string[];
  domains: { slug: string; strong: string[] }[];
};

let projects: ListedClassification[];
let figures: ClassificationFigures;
beforeAll(async () => {
  projects = await classifyRealityList();
  figures = classificationFigures(projects);
}, 120_000);

describe("decidingPhrases and isGenericWord", () => {
  it("read what a rule says decided, and tell a generic word (a plural folded) from a term", () => {
    expect(decidingPhrases("phrase: experiment tracking")).toEqual(["experiment tracking"]);
    expect(decidingPhrases("topic: mcp-server")).toEqual(["mcp-server"]);
    expect(decidingPhrases("signals: portfolio + stock")).toEqual(["portfolio", "stock"]);
    expect(decidingPhrases("package: mcp-server-git")).toEqual([]);
    expect(decidingPhrases("fallback: no domain signal")).toEqual([]);
    const generic = new Set(["data", "model"]);
    expect(["data", "Models", "model zoo", "ocr"].map((w) => isGenericWord(w, generic))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("the classification on best-of-ml-python's shared half (2025-06-26)", () => {
  it("puts 342 of the 374 judged projects in a domain their category accepts (91.4%, bar 85%)", () => {
    expect([figures.projects, figures.judged, figures.agreeing]).toEqual([426, 374, 342]);
    expect(figures.domain_agreement).toBe(0.914);
    expect(figures.domain_agreement).toBeGreaterThanOrEqual(REALITY_BARS.domain_agreement_min);
  });

  it("lets no lone generic word decide, and a single word only as a term its domain lists as strong", () => {
    expect(figures.generic_word_decisions).toBe(0);
    const generic = new Set(taxonomy.generic);
    const strong = new Map(taxonomy.domains.map((d) => [d.slug, new Set(d.strong)]));
    const single = projects.filter(
      (p) => p.rule.startsWith("phrase:") && !/[\s-]/.test(decidingPhrases(p.rule)[0] ?? ""),
    );
    expect(single.length).toBe(figures.single_term_decisions);
    expect(figures.single_term_decisions).toBe(84);
    for (const p of single) {
      const [term] = decidingPhrases(p.rule) as [string];
      expect({ project: p.full_name, term, generic: isGenericWord(term, generic) }).toEqual({
        project: p.full_name,
        term,
        generic: false,
      });
      expect({ project: p.full_name, term, strong: strong.get(p.domain)?.has(term) }).toEqual({
        project: p.full_name,
        term,
        strong: true,
      });
    }
  });

  it("keeps ml-frameworks for frameworks and projects with no signal: 202 projects, 101 of them unclassified", () => {
    expect([figures.ml_frameworks, figures.unclassified]).toEqual([202, 101]);
    const fallen = projects.filter((p) => p.rule.startsWith("fallback"));
    expect(new Set(fallen.map((p) => p.domain))).toEqual(new Set(["ml-frameworks"]));
    // experiment tracking, hyperparameter search and interpretability are named by their phrases, not left there
    const decided = (category: string) =>
      projects.filter((p) => p.category === category && !p.rule.startsWith("fallback"));
    expect(
      decided("ml-experiments")
        .filter((p) => p.domain === "ml-frameworks")
        .map((p) => p.full_name),
    ).toEqual(["pycaret/pycaret"]);
    expect(decided("ml-experiments").filter((p) => p.domain === "mlops").length).toBe(12);
  });

  it("is summarised in docs/classification.md from these figures", () => {
    const doc = readFileSync(new URL("../../docs/classification.md", import.meta.url), "utf8");
    expect(doc).toContain(classificationSummary(figures, taxonomy.generic));
  });
});
