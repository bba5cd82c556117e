// Every constant of the scoring methodology, named once. The .sql files read them as DuckDB variables
// (getvariable('name')), and the methodology document is generated from this same list, so the published
// explanation can never drift from the computation.

export type Component = "maintenance" | "adoption" | "maturity" | "community" | "tier";

export interface Constant {
  name: string;
  value: number;
  component: Component;
  /** What the constant means, for the methodology document. */
  doc: string;
}

/** Caps are fixed (not today's maximum or a percentile), so a project's score is stable from night to night. */
export const CONSTANTS: readonly Constant[] = [
  // maintenance: is someone looking after it?
  {
    name: "commits_90d_cap",
    value: 300,
    component: "maintenance",
    doc: "Commits on the default branch in 90 days that earn full commit points (log scale).",
  },
  {
    name: "commits_points",
    value: 10,
    component: "maintenance",
    doc: "Points for commit activity over 90 days.",
  },
  {
    name: "last_commit_points",
    value: 6,
    component: "maintenance",
    doc: "Points for a recent last commit: full within 30 days, falling linearly to 0 at 365 days.",
  },
  {
    name: "last_commit_full_days",
    value: 30,
    component: "maintenance",
    doc: "Days since the last commit that still earn full recency points.",
  },
  {
    name: "last_commit_zero_days",
    value: 365,
    component: "maintenance",
    doc: "Days since the last commit at which recency points reach 0.",
  },
  {
    name: "release_recency_points",
    value: 5,
    component: "maintenance",
    doc: "Points for a recent release: full within 90 days, falling linearly to 0 at 540 days.",
  },
  {
    name: "release_full_days",
    value: 90,
    component: "maintenance",
    doc: "Days since the latest release that still earn full release points.",
  },
  {
    name: "release_zero_days",
    value: 540,
    component: "maintenance",
    doc: "Days since the latest release at which release points reach 0.",
  },
  {
    name: "issue_closure_points",
    value: 4,
    component: "maintenance",
    doc: "Points for the share of issues that are closed (closed / (open + closed)); a repository with no issues earns half.",
  },
  // adoption: do people depend on it?
  {
    name: "package_points",
    value: 3,
    component: "adoption",
    doc: "Points for publishing a package on a registry linked to the repository.",
  },
  {
    name: "downloads_monthly_cap",
    value: 10_000_000,
    component: "adoption",
    doc: "Monthly downloads that earn full download points (log scale).",
  },
  {
    name: "downloads_points",
    value: 22,
    component: "adoption",
    doc: "Points for monthly downloads across registries.",
  },
  // maturity: is it an established, documented, licensed project?
  {
    name: "age_full_days",
    value: 1460,
    component: "maturity",
    doc: "Age in days that earns full age points (linear).",
  },
  { name: "age_points", value: 8, component: "maturity", doc: "Points for age." },
  {
    name: "releases_cap",
    value: 50,
    component: "maturity",
    doc: "Stable (non pre-release) releases that earn full release-history points (log scale).",
  },
  { name: "releases_points", value: 7, component: "maturity", doc: "Points for the release history." },
  {
    name: "stable_version_points",
    value: 3,
    component: "maturity",
    doc: "Points when the latest version is 1.0 or later.",
  },
  { name: "license_points", value: 4, component: "maturity", doc: "Points for a declared license." },
  {
    name: "docs_points",
    value: 3,
    component: "maturity",
    doc: "Points for documentation signals: 1 for a description, 2 for a homepage.",
  },
  // community: how many people gather around it?
  {
    name: "stars_cap",
    value: 100_000,
    component: "community",
    doc: "Stars that earn full star points (log scale).",
  },
  { name: "stars_points", value: 12, component: "community", doc: "Points for stars." },
  {
    name: "forks_cap",
    value: 10_000,
    component: "community",
    doc: "Forks that earn full fork points (log scale).",
  },
  { name: "forks_points", value: 7, component: "community", doc: "Points for forks." },
  {
    name: "watchers_cap",
    value: 2_000,
    component: "community",
    doc: "Watchers that earn full watcher points (log scale).",
  },
  { name: "watchers_points", value: 6, component: "community", doc: "Points for watchers." },
  // tiers
  {
    name: "tier_verified_min",
    value: 80,
    component: "tier",
    doc: "Lowest quality_score of the verified tier.",
  },
  {
    name: "tier_established_min",
    value: 60,
    component: "tier",
    doc: "Lowest quality_score of the established tier.",
  },
  {
    name: "tier_emerging_min",
    value: 40,
    component: "tier",
    doc: "Lowest quality_score of the emerging tier; below it a project is experimental.",
  },
];

/** `SET VARIABLE` statements that hand the constants to the SQL files. */
export function constantsSql(constants: readonly Constant[] = CONSTANTS): string {
  return constants.map((c) => `SET VARIABLE ${c.name} = ${c.value};`).join("\n");
}
