// The parts of the methodology document beyond the score: lifecycle stages with their thresholds, the domains of
// the taxonomy, the data sources and their raw tables. Values come from CONSTANTS, data/taxonomy.json and SOURCES,
// never retyped, so the document cannot drift from what the pipeline runs.
import { readFileSync } from "node:fs";
import { describeQueryLimits, QUERY_LIMITS } from "../core/query/limits.ts";
import { DOMAINS, type LifecycleStage } from "../schemas/enums.ts";
import { TAXONOMY_FILE } from "./classify.ts";
import { CONSTANTS } from "./methodology.ts";
import { SOURCES } from "./sources/index.ts";

const byName = new Map(CONSTANTS.map((c) => [c.name, c]));
function value(name: string): number {
  const c = byName.get(name);
  if (!c) throw new Error(`The methodology document names ${name}, which is not in CONSTANTS.`);
  return c.value;
}

/** The stages in the order score_lifecycle.sql tests them: the first that holds wins. */
export const STAGE_ORDER: readonly LifecycleStage[] = [
  "dormant",
  "fading",
  "launching",
  "growing",
  "established",
  "emerging",
];

function stageRule(stage: LifecycleStage): string {
  const v = value;
  switch (stage) {
    case "dormant":
      return `Archived, or no commit for ${v("dormant_enter_days")} days. A dormant repository stays dormant until it makes at least ${v("dormant_exit_commits_30d")} commits in 30 days. A finished project is never dormant.`;
    case "fading":
      return `Stars growing less than ${v("growing_exit_pct")}% in 30 days (with the 30-day window unknown, not growing unless it was growing or launching), and either no commit for ${v("fading_enter_days")} days or, with at least ${v("fading_min_commits_365d")} commits in the year and none in the last ${v("fading_quiet_days")} days, commits in 90 days below ${v("fading_enter_activity")} of a quarter of the year's (a quieter quarter that still holds a commit is a pause, not a decline). A fading repository leaves fading with a commit within ${v("fading_exit_days")} days and that ratio back to ${v("fading_exit_activity")}. A finished project is never fading.`;
    case "launching":
      return `Younger than ${v("launching_max_age_days")} days and at least ${v("launching_enter_stars_30d")} stars gained in 30 days; it stays launching while it gains at least ${v("launching_exit_stars_30d")}. While the 30-day star window is unknown (a gap in the nights), a launching repository stays launching and no other becomes so.`;
    case "growing":
      return `Stars up at least ${v("growing_enter_pct")}% in 30 days, and at least ${v("growing_min_stars_30d")} stars gained; it stays growing while the growth stays at ${v("growing_exit_pct")}% or more and it gains at least ${v("growing_exit_stars_30d")} stars. While the 30-day star window is unknown, a growing repository stays growing and no other becomes so.`;
    case "established":
      return `At least ${v("established_min_age_days")} days old, with at least ${v("established_min_stars")} stars (kept while it holds ${v("established_exit_stars")}) or a quality_score of ${v("tier_established_min")} or more.`;
    case "emerging":
      return "Every other repository: active, but not (yet) launching, growing or established.";
  }
}

/** Lifecycle stages, in the order they are tested, with the constants each reads (named after the stage). */
export function lifecycleSection() {
  return {
    order: [...STAGE_ORDER],
    hysteresis: `A repository's current stage decides which threshold applies: a stricter one to enter a stage, a looser one to stay in it, so a project near a threshold does not flap. The stage changes only when the same new stage has held on every night for ${value("lifecycle_confirm_days")} days (counted in days, not nights, so nights a week apart confirm like daily ones), and a repository does not return to the stage it just left within ${value("lifecycle_min_dwell_days")} days of the change; archiving (or leaving an archive) changes the stage the same night. A change of stage is recorded as a transition.`,
    stages: STAGE_ORDER.map((stage) => ({
      stage,
      rule: stageRule(stage),
      constants: CONSTANTS.filter((c) => c.component === "lifecycle" && c.name.startsWith(`${stage}_`)).map(
        (c) => c.name,
      ),
    })),
  };
}

interface TaxonomyDomain {
  slug: string;
  stack_layer: string;
  subcategories?: { name: string; layer: string }[];
}

/** The domains in the spec's order, each with its default stack layer and subcategories (data/taxonomy.json). */
export function domainsSection() {
  const taxonomy = JSON.parse(readFileSync(TAXONOMY_FILE, "utf8")) as {
    fallback: { domain: string; stack_layer: string };
    domains: TaxonomyDomain[];
  };
  const bySlug = new Map(taxonomy.domains.map((d) => [d.slug, d]));
  return {
    classification:
      "Each repository gets exactly one domain, from weighted phrases matched in its topics, name, description and package names and from the packages it publishes or depends on (data/taxonomy.json, docs/classification.md). Within the domain a subcategory's signals pick the subcategory, whose layer is the default stack layer.",
    fallback: taxonomy.fallback,
    domains: DOMAINS.map((domain) => {
      const rules = bySlug.get(domain);
      if (!rules) throw new Error(`data/taxonomy.json has no rules for the domain ${domain}.`);
      return {
        domain,
        stack_layer: rules.stack_layer,
        subcategories: (rules.subcategories ?? []).map((s) => ({ name: s.name, stack_layer: s.layer })),
      };
    }),
  };
}

/** What each source brings, by connector name (pipeline/sources/index.ts); a test checks every source is here. */
export const SOURCE_DOCS: Readonly<Record<string, string>> = {
  github:
    "GitHub GraphQL: discovery of AI repositories and their metadata — stars, forks, watchers, issues, topics, license, language, dates, latest release.",
  github_rest:
    "GitHub REST: weekly commit activity, contributors, issue response times, and the stargazer timeline that bootstraps the star history of a newly tracked repository.",
  pypi: "PyPI: the Python package linked to a repository — versions, release history, license, dependencies.",
  pypistats: "pypistats: monthly downloads of the linked PyPI packages.",
  npm: "npm registry: the linked JavaScript packages — versions, dependencies — and their monthly downloads.",
  dockerhub: "Docker Hub: the linked container images and their cumulative pulls.",
  huggingface: "Hugging Face Hub: the models linked to a repository, their downloads, likes and arXiv tags.",
  hackernews:
    "Hacker News (Algolia search): posts linking tracked repositories, with their points and comments.",
  arxiv: "arXiv: the papers that tracked repositories and their models link to.",
};

/** The limits of POST /api/v1/query, quoted from core/query/limits.ts, the constants the shim enforces. */
export function queryLimitsSection() {
  return {
    rules: describeQueryLimits(),
    deadline_ms: QUERY_LIMITS.deadlineMs,
    max_rows: QUERY_LIMITS.maxRows,
    max_bytes: QUERY_LIMITS.maxBytes,
    max_params: QUERY_LIMITS.maxParams,
    workers: QUERY_LIMITS.workers,
    per_caller: QUERY_LIMITS.perCaller,
    per_address: QUERY_LIMITS.perAddress,
    max_queued: QUERY_LIMITS.maxQueued,
    duckdb_memory: QUERY_LIMITS.duckdbMemory,
    worker_memory_mib: Math.round(QUERY_LIMITS.workerRssBytes / 1024 / 1024),
  };
}

/** Every source in the order collect runs them, with the raw tables it fills. */
export function sourcesSection() {
  return SOURCES.map((source) => {
    const description = SOURCE_DOCS[source.name];
    if (!description) throw new Error(`SOURCE_DOCS has no description of the source ${source.name}.`);
    return { name: source.name, description, raw_tables: [...source.tables] };
  });
}
