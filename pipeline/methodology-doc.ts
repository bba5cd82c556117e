// The methodology document, generated from the constants the SQL runs with (pipeline/methodology.ts): served as
// /api/v1/methodology (JSON) and written to docs/methodology.md (`projintel methodology --write`), so neither can
// drift from the computation. Prose names constants; their values are looked up, never retyped.
import { createHash } from "node:crypto";
import { backtestSection } from "./lists/backtest-result.ts";
import { listHistorySection } from "./lists/history-input.ts";
import { pctWorld, realityCheckSection, worldLabel } from "./lists/reality-check.ts";
import { METHODOLOGY_CHANGELOG } from "./methodology/changelog.ts";
import { COMPONENT_MAX, METHODOLOGY_VERSION, SCORE_COMPONENTS } from "./methodology/score.ts";
import { CONSTANTS, type Constant } from "./methodology.ts";
import {
  domainsSection,
  lifecycleSection,
  queryLimitsSection,
  sourcesSection,
} from "./methodology-sections.ts";

const COMPONENT_SUMMARY: Record<(typeof SCORE_COMPONENTS)[number], string> = {
  maintenance:
    "Is someone looking after it? Commit activity (90-day commits, weeks with a commit), recency of the last commit and of the latest release, and how fast issues get a first response. An archived repository earns 0.",
  adoption:
    "Do people use it? Every signal of use collected: stars and forks, monthly downloads across PyPI, npm and the Hugging Face Hub plus Docker Hub pulls per month, tracked repositories depending on its packages, and likes on the Hub and Docker Hub. A project without a package still earns adoption when people star, fork and depend on it.",
  maturity:
    "Is it an established, stable, documented project? Age, release history, a stable release at 1.0 or later, the share of stable releases, a license, and documentation signals.",
  community:
    "How many people take part? Contributors, pull requests merged, issues filed and watchers. An unknown contributor count is not read as zero: the component is scored from the inputs that are known.",
};

const SCALES = [
  "Log scale: share = min(1, ln(1 + x) / ln(1 + cap)), where cap is a fixed constant, never tonight's maximum or a percentile, so a project's score moves only when its own facts do.",
  "Linear recency: full share up to the *_full_days constant, falling linearly to 0 at the *_zero_days constant; a date in the future counts as today.",
  "Curved log scale (adoption and community, whose inputs measure size): share = min(1, ln(1 + x) / ln(1 + cap)) ^ curve (adoption_curve, community_curve), so the field's reference projects stand apart from mid-size ones while the caps stay at flagship level.",
  "Each part earns round(share × its *_points constant), a whole number; a component is the sum of its parts (0–25) and quality_score the sum of the four components (0–100).",
  "Calibration: caps, curves and the finished-project floor are chosen so that the archetypes of data/calibration/profiles.json land in the tier a knowledgeable user would give them (a flagship framework verified; a well-kept mid-size library and a finished library established; a viral single-maintainer repository emerging; an abandoned hype repository and a weekend demo experimental; a model repository with Hub downloads, a Docker-distributed server, an npm SDK, a corporate SDK, research code, an awesome-list, an archived project and more). pipeline/calibration.test.ts scores every profile through the score SQL; a change of a constant that moves one out of its tier fails it.",
];

/** The inputs of each component's explanation (score_explanations.sql), in order, and the constant capping each. */
export const EXPLANATION_INPUTS: Record<(typeof SCORE_COMPONENTS)[number], readonly [string, string][]> = {
  maintenance: [
    ["commits_90d", "commits_90d_points"],
    ["active_weeks_52w", "active_weeks_points"],
    ["days_since_last_commit", "last_commit_points"],
    ["issue_response_median_hours", "issue_response_points"],
    ["days_since_release", "release_recency_points"],
    ["finished_project_floor", "finished_maintenance_floor"],
  ],
  adoption: [
    ["stars", "stars_points"],
    ["forks", "forks_points"],
    ["downloads_and_pulls_monthly", "downloads_points"],
    ["dependents", "dependents_points"],
    ["registry_likes", "likes_points"],
  ],
  maturity: [
    ["age_days", "age_points"],
    ["releases", "releases_points"],
    ["stable_release", "stable_version_points"],
    ["stable_share", "stable_share_points"],
    ["has_license", "license_points"],
    ["docs_signals", "docs_points"],
  ],
  community: [
    ["contributors", "contributors_points"],
    ["merged_prs", "merged_prs_points"],
    ["issues", "issues_points"],
    ["watchers", "watchers_points"],
  ],
};

const MISSING_INPUTS: readonly { input: string; treatment: string }[] = [
  {
    input: "the rule for an unknown input",
    treatment:
      "An input whose value is unknown tonight (null and marked fallback in the explanation, named under fallbacks) is neither zero nor a fixed guess: it earns the share all the project's known inputs earned together (their points-weighted mean share over the four components), so each known figure is counted once — filled from its own component alone, a list's commit count would stand in for three of maintenance's five inputs. An unknown maintenance input earns no more than the last commit's recency share: a project that stopped committing is not presumed to answer issues or work steadily. A quiet project's unknown input stays low, a busy and adopted one's high; the known inputs decide. Pages show it as “unknown (fallback)”.",
  },
  {
    input: "commit_weeks (REST weekly commit series)",
    treatment:
      "Weeks with a commit are estimated as min(commits_365d, 52) from the GraphQL count, each commit counting for at most one week, or 0 when nothing was pushed for 52 weeks; the explanation lists active_weeks_52w under estimated (it has a value). With neither it is unknown (fallbacks).",
  },
  {
    input: "last_commit_at",
    treatment:
      "The push date stands in for it (days_since_last_commit listed under estimated); with neither, the recency part earns 0.",
  },
  {
    input: "issue_response_median_hours (unknown, or over fewer than issue_response_min_sampled issues)",
    treatment:
      "Unknown: earns the share of all the known inputs, at most the last commit's recency share. For the finished-project rule the share of issues closed decides instead.",
  },
  {
    input:
      "contributors (fetched from GitHub REST in turn; GitHub does not count them for the largest repositories)",
    treatment: "Unknown: earn the share of all the known inputs, never 0 for not having been asked yet.",
  },
  {
    input: "stable_share (no PyPI release history)",
    treatment:
      "With releases on GitHub or npm it is unknown and earns the share of all the known inputs; with no release at all, 0.",
  },
  {
    input: "registry likes, homepage and topics a `projintel rate` input does not state",
    treatment:
      "Unknown, not absent (a best-of list states none of them): registry_likes earns the share of all the known inputs; each unstated documentation signal earns that share of a third of docs_points, and docs_signals shows as unknown (fallback).",
  },
  {
    input:
      "conda and GitHub release-asset downloads (all-time totals), a list's all-registry monthly downloads",
    treatment:
      "A `projintel rate` input may give them: the all-time totals are spread over the months since the repository was created (at least docker_pulls_min_months) and added to downloads_and_pulls_monthly, listed under estimated (conda_downloads_monthly, release_downloads_monthly); a list's all-registry monthly figure is read when no registry's own is given.",
  },
  {
    input: "release dates, creation date",
    treatment: "An unknown date earns 0 for its part (no release known: no release recency).",
  },
  {
    input: "counts and downloads (stars, forks, downloads, pulls, dependents, likes, …)",
    treatment:
      "A project without a package has no downloads: that is known, and reads as 0. A registry that failed tonight keeps its last known package row (feat_packages), so downloads do not drop to 0 for one bad night.",
  },
];

const byName = new Map(CONSTANTS.map((c) => [c.name, c]));
function value(name: string): number {
  const c = byName.get(name);
  if (!c) throw new Error(`The methodology document names ${name}, which is not in CONSTANTS.`);
  return c.value;
}

function finishedRule(): string {
  return [
    `A repository is a finished project, not an abandoned one, when all of these hold: it is not archived; it is at least ${value("finished_min_age_days")} days old;`,
    `it has a stable release (a 1.0+ version, or a 0.x project stable in practice: see stable_version_points); it is really adopted (at least ${value("adopted_min_downloads_monthly")} monthly downloads and pulls: dependents alone are not adoption);`,
    `its issues are still answered (a median first response within ${value("finished_max_response_hours")} hours; when the response time is unknown, at least ${Math.round(value("finished_min_closed_share") * 100)}% of the issues ever filed closed); its latest release is at most ${value("finished_release_window_days")} days old; and its last commit is at most ${value("finished_commit_window_days")} days old.`,
    `A finished project's maintenance is raised to at least ${value("finished_maintenance_floor")} points (the shortfall is the finished_project_floor input of its explanation), so low churn does not punish a project that is done.`,
    "An archived repository, or one failing any condition (no commit or release within the window, no adoption, issues left unanswered), gets no floor. A finished project's history never fades (alive_full_days).",
    "An active project meeting the conditions is flagged finished too (score_components.is_finished); the floor adds points only below it.",
  ].join(" ");
}

function groupByComponent(constants: readonly Constant[]): Map<string, Constant[]> {
  const groups = new Map<string, Constant[]>();
  for (const c of constants) groups.set(c.component, [...(groups.get(c.component) ?? []), c]);
  return groups;
}

const plain = (c: Constant) => ({ name: c.name, value: c.value, doc: c.doc });

/** Identifies the exact constants: changes whenever any name or value does. */
export function methodologyFingerprint(constants: readonly Constant[] = CONSTANTS): string {
  const text = constants.map((c) => `${c.name}=${c.value}`).join("\n");
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/** The methodology as a JSON-able object (the data of /api/v1/methodology). */
export function methodologyDocument() {
  const groups = groupByComponent(CONSTANTS);
  const scoreGroups = new Set<string>([...SCORE_COMPONENTS, "tier"]);
  const tier = (name: string) => value(name);
  return {
    version: METHODOLOGY_VERSION,
    fingerprint: methodologyFingerprint(),
    score: {
      range: [0, 4 * COMPONENT_MAX],
      component_max: COMPONENT_MAX,
      scales: SCALES,
    },
    components: SCORE_COMPONENTS.map((name) => ({
      name,
      max_points: COMPONENT_MAX,
      summary: COMPONENT_SUMMARY[name],
      inputs: EXPLANATION_INPUTS[name].map(([input, max]) => ({
        input,
        max_points: value(max),
        max_constant: max,
      })),
      constants: (groups.get(name) ?? []).map(plain),
    })),
    tiers: {
      ranges: [
        { tier: "verified", min: tier("tier_verified_min"), max: 4 * COMPONENT_MAX },
        { tier: "established", min: tier("tier_established_min"), max: tier("tier_verified_min") - 1 },
        { tier: "emerging", min: tier("tier_emerging_min"), max: tier("tier_established_min") - 1 },
        { tier: "experimental", min: 0, max: tier("tier_emerging_min") - 1 },
      ],
      constants: (groups.get("tier") ?? []).map(plain),
    },
    finished_project: finishedRule(),
    missing_inputs: MISSING_INPUTS,
    explanation:
      "Every project carries, per component, its points, max_points and its inputs in a fixed order, each with its value (null when unknown), the whole points it earned and fallback (true when the value is unknown and the points are what its fallback earned); the points of a component's inputs add up to it. Also: archived, finished_project, history_share (the share of its maturity and community history a project keeps: below 1 after alive_full_days without a sign of life), fallbacks (exactly the inputs marked fallback), estimated (inputs whose value is read from a stand-in: active_weeks_52w from GraphQL, days_since_last_commit from the push date, conda_downloads_monthly and release_downloads_monthly from all-time totals) and flags (package_mismatch: a popular repository whose package is hardly downloaded, most likely the wrong package).",
    slug: "A project's slug is lower(owner) || '--' || lower(name), e.g. Acme/RagKit -> acme--ragkit; owner/name also resolves to the same project.",
    signals: [...groups.entries()]
      .filter(([component]) => !scoreGroups.has(component))
      .map(([component, constants]) => ({ component, constants: constants.map(plain) })),
    lifecycle: lifecycleSection(),
    list_history: listHistorySection(),
    taxonomy: domainsSection(),
    sources: sourcesSection(),
    query_limits: queryLimitsSection(),
    reality_check: realityCheckSection(),
    backtest: backtestSection(),
    changelog: METHODOLOGY_CHANGELOG,
  };
}

export type MethodologyDocument = ReturnType<typeof methodologyDocument>;

function table(constants: readonly { name: string; value: number; doc: string }[]): string[] {
  return [
    "| Constant | Value | Meaning |",
    "|---|---|---|",
    ...constants.map((c) => `| \`${c.name}\` | ${c.value} | ${c.doc.replaceAll("|", "\\|")} |`),
  ];
}

/** The same document as Markdown (docs/methodology.md). */
export function methodologyMarkdown(doc: MethodologyDocument = methodologyDocument()): string {
  const lines = [
    "# Scoring methodology",
    "",
    "<!-- Generated by `projintel methodology --write docs/methodology.md` from pipeline/methodology.ts; do not edit. -->",
    "",
    `Version ${doc.version}, constants fingerprint \`${doc.fingerprint}\`.`,
    "",
    `Each repository scores 0–${doc.score.range[1]}: four components of 0–${doc.score.component_max} points each.`,
    "",
    ...doc.score.scales.map((s) => `- ${s}`),
    "",
  ];
  for (const c of doc.components) {
    lines.push(
      `## ${c.name} (0–${c.max_points})`,
      "",
      c.summary,
      "",
      "| Input | Points | Capped by |",
      "|---|---|---|",
    );
    lines.push(...c.inputs.map((i) => `| ${i.input} | 0–${i.max_points} | \`${i.max_constant}\` |`), "");
    lines.push(...table(c.constants), "");
  }
  lines.push("## Finished projects", "", doc.finished_project, "", "## Missing inputs", "");
  lines.push(...doc.missing_inputs.map((m) => `- **${m.input}**: ${m.treatment}`), "");
  lines.push("## Tiers", "", "| Tier | quality_score |", "|---|---|");
  lines.push(
    ...doc.tiers.ranges.map((t) => `| ${t.tier} | ${t.min}–${t.max} |`),
    "",
    ...table(doc.tiers.constants),
    "",
  );
  lines.push("## Explanations", "", doc.explanation, "", "## Slugs", "", doc.slug, "", "## Signals", "");
  lines.push("Computed beside the score, from the same warehouse; they do not change quality_score.", "");
  for (const s of doc.signals) lines.push(`### ${s.component}`, "", ...table(s.constants), "");
  lines.push(
    "## Lifecycle stages",
    "",
    doc.lifecycle.hysteresis,
    "",
    "Tested in this order; the first that holds wins.",
    "",
  );
  lines.push("| Stage | Rule | Constants |", "|---|---|---|");
  lines.push(
    ...doc.lifecycle.stages.map(
      (s) => `| ${s.stage} | ${s.rule} | ${s.constants.map((c) => `\`${c}\``).join(", ")} |`,
    ),
    "",
  );
  const { fallback } = doc.taxonomy;
  lines.push(
    "## Replaying a list's history",
    "",
    doc.list_history.summary,
    "",
    ...doc.list_history.rules.map((r) => `- ${r}`),
    "",
  );
  lines.push("## Domains", "", doc.taxonomy.classification, "");
  lines.push(`A repository no rule claims falls back to ${fallback.domain} (${fallback.stack_layer}).`, "");
  lines.push("| Domain | Stack layer | Subcategories |", "|---|---|---|");
  lines.push(
    ...doc.taxonomy.domains.map(
      (d) =>
        `| ${d.domain} | ${d.stack_layer} | ${d.subcategories.map((s) => `${s.name} (${s.stack_layer})`).join(", ")} |`,
    ),
    "",
  );
  lines.push("## Data sources", "", "Each is collected every night, in this order.", "");
  lines.push("| Source | What it brings | Raw tables |", "|---|---|---|");
  lines.push(
    ...doc.sources.map(
      (s) => `| ${s.name} | ${s.description} | ${s.raw_tables.map((t) => `\`${t}\``).join(", ")} |`,
    ),
    "",
  );
  lines.push("## SQL queries (POST /api/v1/query)", "", doc.query_limits.rules, "");
  const reality = doc.reality_check;
  const worlds = Object.entries(reality.worlds);
  const pct = (x: number | undefined) => (x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);
  const worldPct = (x: number | undefined) => (x === undefined ? "—" : pctWorld(x));
  lines.push("## Reality check", "", reality.summary, "", `Measured ${reality.measured_at}.`, "");
  lines.push("| Figure | Measured | Bar |", "|---|---|---|");
  lines.push(...reality.figures.map((f) => `| ${f.figure} | ${f.value} | ${f.bar} |`), "");
  lines.push(
    "Tiers on the real list beside the simulated worlds (the demo's and the 220,000-repository world; the list is a",
    "curated selection of notable projects, the worlds every repository tracked):",
    "",
    `| Tier | real list (${reality.projects}) | ${worlds.map(([w, n]) => `${worldLabel(w)} (${n.toLocaleString("en-US")})`).join(" | ")} |`,
    `|---|---|${worlds.map(() => "---|").join("")}`,
    ...reality.tiers.map(
      (t) =>
        `| ${t.tier} | ${pct(t.real_list)} | ${worlds.map(([w]) => worldPct((t as unknown as Record<string, number | undefined>)[w])).join(" | ")} |`,
    ),
    "",
  );
  const backtest = doc.backtest;
  lines.push("## Backtest", "", backtest.summary, "", `Measured ${backtest.measured_at}.`, "");
  lines.push("| Figure | Measured | Naive rule | Target |", "|---|---|---|---|");
  lines.push(...backtest.figures.map((f) => `| ${f.figure} | ${f.value} | ${f.naive} | ${f.bar} |`), "");
  lines.push(backtest.replay, "");
  lines.push("## Changes", "");
  for (const entry of doc.changelog) {
    lines.push(`### Version ${entry.version}`, "", ...entry.changes.map((c) => `- ${c}`), "");
    lines.push(
      entry.score_diff === null
        ? "How it moved the reality list's projects: not measured yet (`npm run bench -- scdiff`)."
        : `How it moved the reality list's projects: ${entry.score_diff}`,
      "",
    );
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
