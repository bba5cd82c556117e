// The classification alone on the reality check's real list (test/fixtures/reality/): each project's domain beside the
// domains its best-of category accepts, and what decided it — so a rule that only fits one list shows up as single
// generic words deciding, or as everything falling into ml-frameworks.
import { readFileSync } from "node:fs";
import { type Classification, classifyRepos, TAXONOMY_FILE } from "../classify.ts";
import { parseCsv } from "./csv.ts";
import { parseRateInput } from "./rate-input.ts";
import { readCategoryDomains } from "./reality.ts";
import { REALITY_LIST } from "./reality-check.ts";

export interface ListedClassification extends Classification {
  category: string;
  /** The domains a reader accepts for the category; null when the category is not judged. */
  accepted: string[] | null;
}

export interface ClassificationFigures {
  projects: number;
  judged: number;
  /** Judged projects whose domain the category accepts (a fallback counts only where ml-frameworks is accepted). */
  agreeing: number;
  domain_agreement: number;
  /** Projects nothing decided (rule `fallback: …`), all given the fallback domain. */
  unclassified: number;
  ml_frameworks: number;
  /** Projects decided by one word of the taxonomy's `generic` list, alone or as one of two signals: 0 by design. */
  generic_word_decisions: number;
  /** Projects decided by a single word, which must then be a term its domain lists as strong ("ocr", "mcmc"). */
  single_term_decisions: number;
}

/** The list's projects classified from what `projintel rate` reads of them (name, description, packages). */
export async function classifyRealityList(file: string = REALITY_LIST.file): Promise<ListedClassification[]> {
  const text = readFileSync(file, "utf8");
  const input = parseRateInput(text, file);
  if (input.problems.length > 0) {
    throw new Error(`${file}: ${input.problems.map((p) => `line ${p.line}: ${p.reason}`).join("; ")}`);
  }
  const [head, ...records] = parseCsv(text);
  const categoryAt = head?.cells.indexOf("category") ?? -1;
  const categories = new Map(records.map((r) => [r.line, r.cells[categoryAt] ?? ""]));
  const accepted = readCategoryDomains();
  const results = await classifyRepos(
    input.rows.map((r) => ({
      full_name: r.full_name,
      description: r.description ?? null,
      topics: r.topics ?? [],
      pypi_package: r.pypi_package ?? null,
      npm_package: r.npm_package ?? null,
    })),
  );
  return results.map((c, i) => {
    const category = categories.get(input.rows[i]?.line ?? -1) ?? "";
    return { ...c, category, accepted: accepted.get(category) ?? null };
  });
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9+]+/)
    .filter(Boolean);

/** The phrases a rule names as what decided: `phrase: x`, `topic: x`, `signals: x + y` (packages are names, not words). */
export function decidingPhrases(rule: string): string[] {
  const [kind, what = ""] = rule.split(/:\s(.*)/s);
  if (kind === "phrase" || kind === "topic") return [what];
  if (kind === "signals") return what.split(" + ");
  return [];
}

interface TaxonomyWords {
  generic: string[];
  domains: { slug: string; strong: string[] }[];
}

/** Whether a one-word phrase is generic (the taxonomy's list, a plural folded) — such a word never decides. */
export function isGenericWord(phrase: string, generic: ReadonlySet<string>): boolean {
  const ws = words(phrase);
  return ws.length === 1 && [ws[0], ws[0]?.replace(/s$/, "")].some((w) => generic.has(w as string));
}

export function classificationFigures(
  projects: readonly ListedClassification[],
  taxonomyFile: string = TAXONOMY_FILE,
): ClassificationFigures {
  const taxonomy = JSON.parse(readFileSync(taxonomyFile, "utf8")) as TaxonomyWords;
  const generic = new Set(taxonomy.generic.map((g) => words(g).join(" ")));
  const judged = projects.filter((p) => p.accepted);
  const agreeing = judged.filter((p) => p.accepted?.includes(p.domain)).length;
  const deciding = projects.map((p) => decidingPhrases(p.rule));
  return {
    projects: projects.length,
    judged: judged.length,
    agreeing,
    domain_agreement: judged.length === 0 ? 0 : Math.round((agreeing / judged.length) * 1000) / 1000,
    unclassified: projects.filter((p) => p.rule.startsWith("fallback")).length,
    ml_frameworks: projects.filter((p) => p.domain === "ml-frameworks").length,
    generic_word_decisions: deciding.filter((d) => d.some((w) => isGenericWord(w, generic))).length,
    single_term_decisions: projects.filter(
      (p, i) => p.rule.startsWith("phrase:") && words(deciding[i]?.[0] ?? "").length === 1,
    ).length,
  };
}

/** docs/classification.md's line on the reality list, generated from the figures (classify-reality.test.ts checks it). */
export function classificationSummary(f: ClassificationFigures, generic: readonly string[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `On the ${f.projects} projects of the reality check's shared half: domain accepted for the list's category ${f.agreeing} of ${f.judged} judged (${pct(f.domain_agreement)});`,
    `${f.generic_word_decisions} decided by a lone generic word, ${f.single_term_decisions} by a single term of its field;`,
    `ml-frameworks ${f.ml_frameworks} (${f.unclassified} of them with no domain signal).`,
    `Generic words: ${generic.join(", ")}.`,
  ].join(" ");
}
