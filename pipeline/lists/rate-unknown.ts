// The inputs a rate file gives for no row, and what the score does without them: said once, so a dropped column
// (a best-of export without pypi_monthly_downloads) is not a silent drop of every row's tier.
import { COMPONENT_MAX, SCORE_CONSTANTS } from "../methodology/score.ts";
import { BEST_OF_COLUMNS, type RateInput, type RateRow } from "./rate-input.ts";

interface UnknownRead {
  /** The `*_points` constant (pipeline/methodology/score.ts) whose points the field feeds. */
  part: string;
  /** What the score does with the field unknown (pipeline/sql/score_components.sql). */
  reads: string;
  /** Fields that stand in for it: it is missed only when none of them is given either. */
  or?: (keyof RateRow)[];
  /**
   * An estimate or stand-in (all-time totals, best-of's all-registry figure): missed only when none of `or` is given,
   * even when its own column is absent, since a file with per-registry downloads loses nothing without it.
   */
  standIn?: true;
}

// how the score fills an unknown share is the scoring's (score_components.sql): said without its mechanism
const FROM_OTHERS = "scored from the other inputs given";
const DOWNLOADS = [
  "pypi_downloads_monthly",
  "npm_downloads_monthly",
  "hf_downloads_monthly",
  "docker_pulls",
  "all_downloads_monthly",
  "conda_downloads",
  "release_downloads",
] as const;
const RELEASE_DATES = ["latest_release_at", "pypi_latest_release_at", "npm_latest_release_at"] as const;
const VERSIONS = ["latest_release_tag", "pypi_version", "npm_version"] as const;
const others = <T extends string>(all: readonly T[], field: T) => all.filter((f) => f !== field);

/** Each field the score reads and what an unknown one costs; the fields left out only classify (rate.test.ts). */
export const UNKNOWN_READS: Partial<Record<keyof RateRow, UnknownRead>> = {
  description: { part: "docs_points", reads: "one documentation signal fewer" },
  // a best-of list states neither: no best-of column, so only a JSON input is asked for them; unstated is unknown
  homepage: { part: "docs_points", reads: FROM_OTHERS },
  topics: { part: "docs_points", reads: FROM_OTHERS },
  license: { part: "license_points", reads: "no licence points" },
  created_at: { part: "age_points", reads: "no age points" },
  pushed_at: {
    part: "last_commit_points",
    reads: "no last-commit points, and no finished-project floor",
    or: ["last_commit_at"],
  },
  last_commit_at: {
    part: "last_commit_points",
    reads: "no last-commit points, and no finished-project floor",
    or: ["pushed_at"],
  },
  stars: { part: "stars_points", reads: "read as 0" },
  forks: { part: "forks_points", reads: "read as 0" },
  watchers: { part: "watchers_points", reads: "read as 0" },
  open_issues: { part: "issues_points", reads: "read as 0" },
  closed_issues: { part: "issues_points", reads: "read as 0" },
  merged_prs: { part: "merged_prs_points", reads: FROM_OTHERS },
  contributors: { part: "contributors_points", reads: FROM_OTHERS },
  commits_90d: { part: "commits_90d_points", reads: "read as 0" },
  commits_365d: { part: "active_weeks_points", reads: FROM_OTHERS },
  releases_total: {
    part: "releases_points",
    reads: "read as 0",
    or: ["pypi_stable_releases", "npm_versions_total"],
  },
  latest_release_tag: {
    part: "stable_version_points",
    reads: "no stable 1.0+ version",
    or: others(VERSIONS, "latest_release_tag"),
  },
  pypi_version: {
    part: "stable_version_points",
    reads: "no stable 1.0+ version",
    or: others(VERSIONS, "pypi_version"),
  },
  npm_version: {
    part: "stable_version_points",
    reads: "no stable 1.0+ version",
    or: others(VERSIONS, "npm_version"),
  },
  latest_release_at: {
    part: "release_recency_points",
    reads: "no release points",
    or: others(RELEASE_DATES, "latest_release_at"),
  },
  pypi_latest_release_at: {
    part: "release_recency_points",
    reads: "no release points",
    or: others(RELEASE_DATES, "pypi_latest_release_at"),
  },
  npm_latest_release_at: {
    part: "release_recency_points",
    reads: "no release points",
    or: others(RELEASE_DATES, "npm_latest_release_at"),
  },
  issue_response_median_hours: { part: "issue_response_points", reads: FROM_OTHERS },
  issues_sampled: {
    part: "issue_response_points",
    reads: `a median over fewer than 3 issues: ${FROM_OTHERS}`,
  },
  pypi_stable_releases: { part: "stable_share_points", reads: FROM_OTHERS },
  pypi_prereleases: { part: "stable_share_points", reads: FROM_OTHERS },
  npm_versions_total: {
    part: "releases_points",
    reads: "read as 0",
    or: ["releases_total", "pypi_stable_releases"],
  },
  pypi_downloads_monthly: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "pypi_downloads_monthly"),
  },
  npm_downloads_monthly: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "npm_downloads_monthly"),
  },
  hf_downloads_monthly: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "hf_downloads_monthly"),
  },
  docker_pulls: { part: "downloads_points", reads: "read as 0", or: others(DOWNLOADS, "docker_pulls") },
  all_downloads_monthly: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "all_downloads_monthly"),
    standIn: true,
  },
  conda_downloads: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "conda_downloads"),
    standIn: true,
  },
  release_downloads: {
    part: "downloads_points",
    reads: "read as 0",
    or: others(DOWNLOADS, "release_downloads"),
    standIn: true,
  },
  dependents: { part: "dependents_points", reads: "read as 0" },
  registry_likes: { part: "likes_points", reads: FROM_OTHERS },
};

/** Inputs of the score that are classification's alone, or that have a default (archived: not archived). */
export const NOT_SCORED: readonly (keyof RateRow)[] = [
  "full_name",
  "language",
  "archived",
  "pypi_package",
  "npm_package",
  "dependencies",
];

/** The inputs a file misses and what that costs each row, one line per score part. */
export interface Missed {
  /** As the file would name them: best-of's column, or the field. */
  names: string[];
  component: string;
  part: string;
  points: number;
  reads: string;
}

const BEST_OF_NAME = new Map<string, string>(Object.entries(BEST_OF_COLUMNS).map(([c, f]) => [f, c]));

/**
 * The inputs the score reads that the file gives for no row: a best-of column absent from the header (whatever else
 * is given), or a field no row has, nor any field standing in for it. A best-of file is only asked for best-of's
 * columns; the fields no best-of column feeds are documented as unknown there.
 */
export function missedInputs(input: RateInput): Missed[] {
  const given = new Set<string>();
  for (const row of input.rows) {
    for (const [field, value] of Object.entries(row))
      if (value !== null && value !== undefined) given.add(field);
  }
  const missed = new Map<string, Missed>();
  for (const [field, read] of Object.entries(UNKNOWN_READS) as [keyof RateRow, UnknownRead][]) {
    const column = BEST_OF_NAME.get(field);
    if (input.best_of_names && !column) continue;
    const absent = !read.standIn && column !== undefined && input.absent_columns.includes(column);
    if (!absent && (given.has(field) || (read.or ?? []).some((f) => given.has(f)))) continue;
    const constant = SCORE_CONSTANTS.find((c) => c.name === read.part);
    if (!constant) throw new Error(`rate-unknown: no score constant ${read.part}`);
    const key = `${read.part}\u0000${read.reads}`;
    const name = input.best_of_names && column ? column : field;
    const entry = missed.get(key);
    if (entry) entry.names.push(name);
    else {
      missed.set(key, {
        names: [name],
        component: constant.component,
        part: read.part,
        points: constant.value,
        reads: read.reads,
      });
    }
  }
  return [...missed.values()];
}

/** One line per missed part: "pypi_monthly_downloads: adoption downloads_points (up to 8 of 25): read as 0". */
export function describeMissed(missed: readonly Missed[]): string[] {
  return missed.map(
    (m) =>
      `${m.names.join(", ")}: ${m.component} ${m.part} (up to ${m.points} of ${COMPONENT_MAX}): ${m.reads}`,
  );
}
