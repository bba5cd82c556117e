// The constants of the quality score: its four components (0–25 each, the `*_points` maxima of a component add
// up to 25), the finished-project rule, the treatment of unknown inputs, and the tiers. Named once here; the
// .sql files read them as DuckDB variables and the methodology document is generated from them.
import type { Constant } from "../methodology.ts";

/** Bumped when a rule changes shape (not when a constant changes value: the document carries a fingerprint). */
export const METHODOLOGY_VERSION = "4";

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
    doc: "Points for steady work: weeks of the last 52 with at least one commit (REST commit_weeks), linear up to active_weeks_full. When the weekly series is unknown, the weeks are estimated as min(commits_365d, 52) from GraphQL, each commit counting for at most one week; with neither (a `projintel rate` input may lack both) steady work is an unknown input, scored from the maintenance inputs that are known.",
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
    doc: "Fewest recent issues the median must be over to count; below it (or when unknown) responsiveness is an unknown input, scored from the maintenance inputs that are known (see missing inputs).",
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
    value: 20,
    component: "maintenance",
    doc: "Maintenance points a finished project earns at least (the shortfall is listed as the finished_project_floor input): four fifths, so a library that is done (the calibration's finished library: no commit for 8 months, 400,000 downloads a month) stays established. An archived or abandoned project gets no floor.",
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
    name: "finished_release_window_days",
    value: 730,
    component: "maintenance",
    doc: "Finished project: its latest release is at most this many days old — a finished library still ships the odd fix; one with no release for years is unmaintained however many people still install it. It must also be adopted (adopted_min_downloads_monthly: downloads, since dependents alone — a package with 10 downloads a month and 3 dependents — are not adoption).",
  },
  {
    name: "finished_max_response_hours",
    value: 336,
    component: "maintenance",
    doc: "Finished project: issues still answered, a known median first response within this many hours…",
  },
  {
    name: "finished_min_closed_share",
    value: 0.75,
    component: "maintenance",
    doc: "…or, when the response time is unknown (a list that does not measure it), at least this share of the issues ever filed closed: a popular library with hundreds of open issues can still close nine in ten, and a count of open issues alone punished exactly the adopted ones. With neither a response time nor any issue, the rule cannot tell: not finished.",
  },
];

// Adoption reads every signal of use collected, so a project without a package is not at zero when people star,
// fork and depend on it. Caps sit near what the flagships of the calibration set (data/calibration/) reach, so a
// flagship earns nearly all points and a typical mid-size library about two thirds of them.
const adoption: Constant[] = [
  {
    name: "adoption_curve",
    value: 1.25,
    component: "adoption",
    doc: "Exponent on every adoption share: share = (ln(1 + x) / ln(1 + cap)) ^ adoption_curve. A plain log scale squeezes a mid-size project close to a flagship (5,000 stars earn 74% of 100,000's points, and a well-kept mid-size library reached the verified tier); at 1.25 they earn 69%, so scale tells the reference projects of the field apart while the caps stay at flagship level. Steeper curves flatten the small projects' differences into the same whole points.",
  },
  {
    name: "stars_points",
    value: 9,
    component: "adoption",
    doc: "Points for stars (people who bookmark and follow the code: the one signal of use every repository has), on a log scale up to stars_cap.",
  },
  {
    name: "stars_cap",
    value: 100_000,
    component: "adoption",
    doc: "Stars that earn full star points: the flagship frameworks of the field hold 50,000–200,000; a well-kept mid-size library of 5,000 earns 69% of the points.",
  },
  {
    name: "forks_points",
    value: 3,
    component: "adoption",
    doc: "Points for forks (people who build on the code), on a log scale up to forks_cap.",
  },
  {
    name: "forks_cap",
    value: 20_000,
    component: "adoption",
    doc: "Forks that earn full fork points: flagships hold 15,000–60,000, forks being about a seventh of stars.",
  },
  {
    name: "downloads_points",
    value: 8,
    component: "adoption",
    doc: "Points for monthly downloads and pulls summed over every registry: PyPI, npm and Hugging Face Hub downloads of the last month plus Docker Hub pulls per month (docker_pulls_min_months), on a log scale up to downloads_monthly_cap.",
  },
  {
    name: "downloads_monthly_cap",
    value: 10_000_000,
    component: "adoption",
    doc: "Monthly downloads and pulls that earn full download points: a flagship framework's PyPI package passes 10 million a month; 200,000 a month (a mid-size library) earns 71%.",
  },
  {
    name: "docker_pulls_min_months",
    value: 1,
    component: "adoption",
    doc: "Docker Hub reports only cumulative pulls: they count per month as pulls divided by the months since the image was registered, at least this many (an image with no registration date spreads its pulls over docker_pulls_unknown_months).",
  },
  {
    name: "docker_pulls_unknown_months",
    value: 36,
    component: "adoption",
    doc: "Months an image's cumulative pulls are spread over when Docker Hub gives no registration date: a typical age of a tracked image, so its pulls are neither dropped nor inflated.",
  },
  {
    name: "dependents_points",
    value: 3,
    component: "adoption",
    doc: "Points for dependents, two measures each on a scale of its own. The nightly counts tracked repositories whose PyPI or npm package declares one of this repository's packages a dependency (the registries give no dependent count themselves), on the curved log scale of every adoption count up to dependents_tracked_cap. A list rated by `projintel rate` reports GitHub's dependency graph (best-of's dependent_project_count: every public repository and package depending on it), on a plain log scale up to dependents_graph_cap: ln(1 + dependents) / ln(1 + dependents_graph_cap), without adoption_curve, since those counts span six orders of magnitude and the curve would flatten the small ones to 0. The tracked count can never pass the repositories tracked: on the graph's scale a library 40 tracked repositories build on would earn a third of the points.",
  },
  {
    name: "dependents_tracked_cap",
    value: 100,
    component: "adoption",
    doc: "Tracked dependents that earn full dependent points: only a tracked repository that publishes a package can declare a dependency, so 100 of them is a library the field builds on (in a simulated 220,000-repository world 46 packages reach it; the calibration's flagship holds 1,500); 40 earn 76% of the points, 12 48%.",
  },
  {
    name: "dependents_graph_cap",
    value: 100_000,
    component: "adoption",
    doc: "Dependency-graph dependents (a list's count) that earn full dependent points: a library the whole ecosystem builds on (numpy, pillow and scikit-learn count one to two million on GitHub); 55 dependents earn 35% of the points, 1,000 60%, so 55 and 1.9 million do not score the same.",
  },
  {
    name: "adopted_min_downloads_monthly",
    value: 50_000,
    component: "adoption",
    doc: "Monthly downloads and pulls (every registry together, as downloads_points reads them) of a project that is really adopted: the bar of a 0.x project stable in practice and of a finished project. Dependents alone never make a project adopted.",
  },
  {
    name: "package_mismatch_min_stars",
    value: 3_000,
    component: "adoption",
    doc: "A repository with at least this many stars and a package…",
  },
  {
    name: "package_mismatch_max_downloads",
    value: 1_000,
    component: "adoption",
    doc: "…that has fewer monthly downloads than this is flagged `package_mismatch` in its explanation: most likely the list names the wrong package (a name another project holds). Its figures are scored as given; the flag tells a reader not to trust its downloads.",
  },
  {
    name: "likes_points",
    value: 2,
    component: "adoption",
    doc: "Points for likes on the registries: Hugging Face Hub likes of its models plus Docker Hub stars of its images, on a log scale up to likes_cap.",
  },
  {
    name: "likes_cap",
    value: 5_000,
    component: "adoption",
    doc: "Registry likes that earn full like points: the most liked models of the Hub hold 5,000–10,000.",
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
    value: 2190,
    component: "maturity",
    doc: "Age in days that earns full age points: six years, the age of the field's flagships; a four-year-old library earns two thirds.",
  },
  {
    name: "releases_points",
    value: 6,
    component: "maturity",
    doc: "Points for the release history: the most releases any of GitHub, PyPI (stable only) or npm reports, on a log scale up to releases_cap.",
  },
  {
    name: "releases_cap",
    value: 100,
    component: "maturity",
    doc: "Releases that earn full release-history points: flagships publish well over 100 versions; a library releasing monthly for four years (about 45) earns five sixths.",
  },
  {
    name: "stable_version_points",
    value: 4,
    component: "maturity",
    doc: "Points for a stable release, read from release practice rather than the major version alone: the latest PyPI version, npm version or GitHub release tag states a version of 1.0 or later (read wherever it stands in the tag: `client/v2.5.4` is 2.5.4, `4.52.4-Kyutai-STT-preiew` is 4.52.4) with no pre-release marker right after it (`2.0.0rc1`, `3.0-beta`), unless it is a pre-release of a version above 1.0 after stable_practice_min_releases releases (`v4.0.0-rc.1` after 158 releases: the 3.x before it are stable; a pre-release of 1.0 itself never is); or a 0.x project is released like a stable one: at least stable_practice_min_age_days old, stable_practice_min_releases releases at stable_practice_releases_per_year or more, the latest not a pre-release, and adopted (adopted_min_downloads_monthly; half of a real list is on 0.x, statsmodels and shap among them).",
  },
  {
    name: "stable_practice_min_age_days",
    value: 730,
    component: "maturity",
    doc: "Stable in practice: at least this many days old.",
  },
  {
    name: "stable_practice_min_releases",
    value: 10,
    component: "maturity",
    doc: "Stable in practice: at least this many releases (the most any of GitHub, PyPI or npm reports; also what a pre-release of a version above 1.0 needs to count as stable)…",
  },
  {
    name: "stable_practice_releases_per_year",
    value: 1,
    component: "maturity",
    doc: "…published at this many a year or more over the project's life (a steady practice, not one burst)…",
  },

  {
    name: "stable_share_points",
    value: 2,
    component: "maturity",
    doc: "Points for releasing stable versions: the share of PyPI releases that are not pre-releases. With releases but no PyPI history the share is unknown (only PyPI tells pre-releases apart) and scored from the maturity inputs that are known; with no release at all it earns 0.",
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

// Community counts the people who take part: contributors, pull requests merged, issues filed, watchers. Stars and
// forks are adoption's. Contributors come from GitHub REST and are often not yet fetched: unknown, not zero.
const community: Constant[] = [
  {
    name: "community_curve",
    value: 1.25,
    component: "community",
    doc: "Exponent on every community share, as adoption_curve: 80 contributors earn 57% of the contributor points instead of 64%.",
  },
  {
    name: "contributors_points",
    value: 10,
    component: "community",
    doc: "Points for contributors (anonymous ones included), on a log scale up to contributors_cap. Unknown until GitHub REST has been asked (and never counted for the largest repositories): then scored from the community inputs that are known.",
  },
  {
    name: "contributors_cap",
    value: 1_000,
    component: "community",
    doc: "Contributors that earn full contributor points: flagship frameworks hold 1,000–4,000; a mid-size library of 80 earns 57%.",
  },
  {
    name: "merged_prs_points",
    value: 5,
    component: "community",
    doc: "Points for pull requests merged over the repository's life, on a log scale up to merged_prs_cap. GitHub always reports the count; a `projintel rate` input may not know it (best-of lists count all pull requests, not merged ones): then scored from the community inputs that are known.",
  },
  {
    name: "merged_prs_cap",
    value: 5_000,
    component: "community",
    doc: "Merged pull requests that earn full points: flagships merge tens of thousands, a mature library thousands.",
  },
  {
    name: "issues_points",
    value: 5,
    component: "community",
    doc: "Points for issues filed (open and closed): people who use it enough to report, on a log scale up to issues_cap.",
  },
  {
    name: "issues_cap",
    value: 5_000,
    component: "community",
    doc: "Issues filed that earn full issue points: flagships hold tens of thousands, a mature library thousands.",
  },
  {
    name: "watchers_points",
    value: 5,
    component: "community",
    doc: "Points for watchers (people following every change), on a log scale up to watchers_cap.",
  },
  {
    name: "watchers_cap",
    value: 2_000,
    component: "community",
    doc: "Watchers that earn full watcher points: the most watched flagships hold 1,000–3,000.",
  },
];

// A project's history fades when it stops showing life: the contributors, pull requests, issues and watchers it
// gathered and the age, releases and stability it built count in full while it is alive, and less the longer it is
// not, so a famous project dead for two years reads as what it is now.
const decay: Constant[] = [
  {
    name: "alive_full_days",
    value: 365,
    component: "maturity",
    doc: "Days since a project last showed life (its last commit — the push date when unknown — or its latest release, whichever is newer) within which maturity's history (age, releases, stable release, stable share) and every community input count in full. A finished project (see the finished-project rule) always counts in full.",
  },
  {
    name: "alive_zero_days",
    value: 730,
    component: "maturity",
    doc: "Days without a sign of life at which that history has faded to dead_history_share, linearly from alive_full_days.",
  },
  {
    name: "dead_history_share",
    value: 0.2,
    component: "maturity",
    doc: "Share of maturity's history and of every community input a project keeps after alive_zero_days without a sign of life: a famous project with no push for two years (Theano, CNTK, tensor2tensor) falls to experimental rather than keeping the tier its past earned. Licence and documentation do not fade.",
  },
];

const tiers: Constant[] = [
  {
    name: "tier_verified_min",
    value: 80,
    component: "tier",
    doc: "Lowest quality_score of the verified tier (the published ranges are fixed; the caps are calibrated so the flagships of data/calibration/ clear it and a well-kept mid-size library does not).",
  },
  {
    name: "tier_established_min",
    value: 60,
    component: "tier",
    doc: "Lowest quality_score of the established tier: cleared by the calibration's mid-size, finished and corporate libraries, SDKs and servers, not by a three-month-old launch or an awesome-list.",
  },
  {
    name: "tier_emerging_min",
    value: 40,
    component: "tier",
    doc: "Lowest quality_score of the emerging tier; below it a project is experimental (the calibration's weekend demo, research code and abandoned hype repository).",
  },
];

/** Caps are fixed (not today's maximum or a percentile), so a project's score is stable from night to night. */
export const SCORE_CONSTANTS: readonly Constant[] = [
  ...maintenance,
  ...finished,
  ...adoption,
  ...maturity,
  ...community,
  ...decay,
  ...tiers,
];
