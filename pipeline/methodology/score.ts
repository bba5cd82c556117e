// The constants of the quality score: its four components (0–25 each, the `*_points` maxima of a component add
// up to 25), the finished-project rule, the treatment of unknown inputs, and the tiers. Named once here; the
// .sql files read them as DuckDB variables and the methodology document is generated from them.
import type { Constant } from "../methodology.ts";

/** Bumped when a rule changes shape (not when a constant changes value: the document carries a fingerprint). */
export const METHODOLOGY_VERSION = "2";

/** Points of one component; every component's `*_points` constants add up to it. */
export const COMPONENT_MAX = 25;

/** The score components, in the order they are listed and explained. */
export const SCORE_COMPONENTS = ["maintenance", "adoption", "maturity", "community"] as const;

const maintenance: Constant[] = [
  {
    name: "commits_90d_points",
    value: 7,
    component: "maintenance",
    doc: "Points for commits on the default branch in the last 90 days (GraphQL), on a log scale: ln(1 + commits) / ln(1 + commits_90d_cap).",
  },
  {
    name: "commits_90d_cap",
    value: 300,
    component: "maintenance",
    doc: "Commits in 90 days that earn full commit points.",
  },
  {
    name: "active_weeks_points",
    value: 4,
    component: "maintenance",
    doc: "Points for steady work: weeks of the last 52 with at least one commit (REST commit_weeks), linear up to active_weeks_full. When the weekly series is unknown, the weeks are estimated as min(commits_365d, 52) from GraphQL, each commit counting for at most one week.",
  },
  {
    name: "active_weeks_full",
    value: 26,
    component: "maintenance",
    doc: "Weeks with a commit (of the last 52) that earn full steady-work points.",
  },
  {
    name: "last_commit_points",
    value: 4,
    component: "maintenance",
    doc: "Points for a recent last commit (the push date when the last commit is unknown): full within last_commit_full_days, falling linearly to 0 at last_commit_zero_days.",
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
    name: "issue_response_points",
    value: 6,
    component: "maintenance",
    doc: "Points for answering issues: the median hours from opening to first comment or close, full at issue_response_full_hours or faster, falling on a log scale to 0 at issue_response_zero_hours.",
  },
  {
    name: "issue_response_full_hours",
    value: 24,
    component: "maintenance",
    doc: "Median first-response time (hours) that earns full responsiveness points.",
  },
  {
    name: "issue_response_zero_hours",
    value: 720,
    component: "maintenance",
    doc: "Median first-response time (hours) at which responsiveness points reach 0.",
  },
  {
    name: "issue_response_min_sampled",
    value: 3,
    component: "maintenance",
    doc: "Fewest recent issues the median must be over to count; below it (or when unknown) responsiveness earns issue_response_unknown_share.",
  },
  {
    name: "issue_response_unknown_share",
    value: 0.5,
    component: "maintenance",
    doc: "Share of the responsiveness points earned when responsiveness is unknown or measured on too few issues: neutral, neither rewarded nor punished.",
  },
  {
    name: "release_recency_points",
    value: 4,
    component: "maintenance",
    doc: "Points for a recent release (newest of the GitHub release, PyPI and npm): full within release_full_days, falling linearly to 0 at release_zero_days; none without a known release.",
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
];

/** The finished-project rule: a mature, adopted, still-answered project is not punished for low churn. */
const finished: Constant[] = [
  {
    name: "finished_maintenance_floor",
    value: 15,
    component: "maintenance",
    doc: "Maintenance points a finished project earns at least (the shortfall is listed as the finished_project_floor input). An archived or abandoned project gets no floor.",
  },
  {
    name: "finished_min_age_days",
    value: 730,
    component: "maintenance",
    doc: "Finished project: at least this many days old.",
  },
  {
    name: "finished_commit_window_days",
    value: 730,
    component: "maintenance",
    doc: "Finished project: its last commit is at most this many days old (an abandoned project has none within it).",
  },
  {
    name: "finished_min_downloads_monthly",
    value: 1000,
    component: "maintenance",
    doc: "Finished project: still adopted, with at least this many monthly downloads (PyPI + npm + Hugging Face)…",
  },
  {
    name: "finished_min_dependents",
    value: 3,
    component: "maintenance",
    doc: "…or at least this many tracked repositories depending on its packages.",
  },
  {
    name: "finished_max_response_hours",
    value: 336,
    component: "maintenance",
    doc: "Finished project: issues still answered, a known median first response within this many hours…",
  },
  {
    name: "finished_max_open_issues",
    value: 25,
    component: "maintenance",
    doc: "…or at most this many open issues.",
  },
];

const adoption: Constant[] = [
  {
    name: "package_points",
    value: 2,
    component: "adoption",
    doc: "Points for publishing at least one package linked to the repository (PyPI, npm, Docker Hub or the Hugging Face Hub).",
  },
  {
    name: "downloads_points",
    value: 13,
    component: "adoption",
    doc: "Points for monthly downloads across PyPI, npm and the Hugging Face Hub, on a log scale up to downloads_monthly_cap.",
  },
  {
    name: "downloads_monthly_cap",
    value: 10_000_000,
    component: "adoption",
    doc: "Monthly downloads that earn full download points.",
  },
  {
    name: "docker_pulls_points",
    value: 4,
    component: "adoption",
    doc: "Points for Docker Hub pulls (cumulative since the image was registered: Docker Hub reports no monthly count), on a log scale up to docker_pulls_cap.",
  },
  {
    name: "docker_pulls_cap",
    value: 100_000_000,
    component: "adoption",
    doc: "Cumulative Docker Hub pulls that earn full pull points.",
  },
  {
    name: "dependents_points",
    value: 6,
    component: "adoption",
    doc: "Points for dependents: tracked repositories whose PyPI or npm package declares one of this repository's packages a dependency, on a log scale up to dependents_cap.",
  },
  {
    name: "dependents_cap",
    value: 500,
    component: "adoption",
    doc: "Dependents that earn full dependent points.",
  },
];

const maturity: Constant[] = [
  {
    name: "age_points",
    value: 6,
    component: "maturity",
    doc: "Points for age since the repository was created, linear up to age_full_days.",
  },
  {
    name: "age_full_days",
    value: 1460,
    component: "maturity",
    doc: "Age in days that earns full age points.",
  },
  {
    name: "releases_points",
    value: 6,
    component: "maturity",
    doc: "Points for the release history: the most releases any of GitHub, PyPI (stable only) or npm reports, on a log scale up to releases_cap.",
  },
  {
    name: "releases_cap",
    value: 50,
    component: "maturity",
    doc: "Releases that earn full release-history points.",
  },
  {
    name: "stable_version_points",
    value: 4,
    component: "maturity",
    doc: "Points for a stable release at 1.0 or later: the latest PyPI version, npm version or GitHub release tag has a major version of at least 1 and no pre-release marker.",
  },
  {
    name: "stable_share_points",
    value: 2,
    component: "maturity",
    doc: "Points for releasing stable versions: the share of PyPI releases that are not pre-releases. A project with releases but no PyPI history earns stable_share_unknown; one with no release at all earns 0.",
  },
  {
    name: "stable_share_unknown",
    value: 0.5,
    component: "maturity",
    doc: "Share of the stable-share points earned when releases exist but none is on PyPI (only PyPI tells pre-releases apart).",
  },
  {
    name: "license_points",
    value: 4,
    component: "maturity",
    doc: "Points for a declared license (any SPDX identifier GitHub detects).",
  },
  {
    name: "docs_points",
    value: 3,
    component: "maturity",
    doc: "Points for documentation signals, one each: a description, a homepage, at least one topic.",
  },
];

const community: Constant[] = [
  {
    name: "stars_points",
    value: 11,
    component: "community",
    doc: "Points for stars, on a log scale up to stars_cap.",
  },
  {
    name: "stars_cap",
    value: 100_000,
    component: "community",
    doc: "Stars that earn full star points.",
  },
  {
    name: "forks_points",
    value: 6,
    component: "community",
    doc: "Points for forks, on a log scale up to forks_cap.",
  },
  {
    name: "forks_cap",
    value: 10_000,
    component: "community",
    doc: "Forks that earn full fork points.",
  },
  {
    name: "contributors_points",
    value: 6,
    component: "community",
    doc: "Points for contributors (anonymous ones included), on a log scale up to contributors_cap. GitHub does not count them for the largest repositories: unknown contributors earn the same share as the forks.",
  },
  {
    name: "contributors_cap",
    value: 500,
    component: "community",
    doc: "Contributors that earn full contributor points.",
  },
  {
    name: "watchers_points",
    value: 2,
    component: "community",
    doc: "Points for watchers, on a log scale up to watchers_cap.",
  },
  {
    name: "watchers_cap",
    value: 2_000,
    component: "community",
    doc: "Watchers that earn full watcher points.",
  },
];

const tiers: Constant[] = [
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

/** Caps are fixed (not today's maximum or a percentile), so a project's score is stable from night to night. */
export const SCORE_CONSTANTS: readonly Constant[] = [
  ...maintenance,
  ...finished,
  ...adoption,
  ...maturity,
  ...community,
  ...tiers,
];
