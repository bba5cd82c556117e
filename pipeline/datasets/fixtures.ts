// Hand-made tables for the dataset tests: `projects`, `feat_repos`, `transitions` and raw tables with exactly the
// contract's columns the dataset .sql files read, and the variables `projintel score` hands them.
import type { Cell } from "../sql-testing.ts";

export const RUN_DATE = "2026-11-20";

export const PROJECTS_COLUMNS =
  "node_id VARCHAR, full_name VARCHAR, owner VARCHAR, slug VARCHAR, domain VARCHAR, stack_layer VARCHAR, " +
  "stars BIGINT, commits_30d INTEGER, commits_90d INTEGER, contributors INTEGER, quality_score INTEGER, " +
  "quality_tier VARCHAR, stars_7d_delta BIGINT, momentum DOUBLE, lifecycle_stage VARCHAR, " +
  "latest_release_tag VARCHAR, latest_release_at TIMESTAMP";

/** A `projects` row: owner and slug follow from full_name; the rest defaults to a quiet, small project. */
export function project(fullName: string, values: Record<string, Cell> = {}): Record<string, Cell> {
  const [owner = "", name = ""] = fullName.split("/");
  return {
    node_id: `N_${name}`,
    full_name: fullName,
    owner,
    slug: `${owner.toLowerCase()}--${name.toLowerCase()}`,
    domain: "agents",
    stack_layer: "orchestration",
    stars: 100,
    commits_30d: 0,
    commits_90d: 0,
    contributors: 1,
    quality_score: 50,
    quality_tier: "emerging",
    stars_7d_delta: 0,
    momentum: null,
    lifecycle_stage: "established",
    ...values,
  };
}

export const FEAT_REPOS_COLUMNS = "node_id VARCHAR, commit_weeks INTEGER[], activity_as_of DATE";

export const TRANSITIONS_COLUMNS =
  "node_id VARCHAR, full_name VARCHAR, date DATE, from_stage VARCHAR, to_stage VARCHAR";

export const RAW_GITHUB_ACTIVITY_COLUMNS =
  "run_date DATE, node_id VARCHAR, full_name VARCHAR, contributors INTEGER, activity_as_of DATE";

export const RAW_GITHUB_REPOS_COLUMNS =
  "run_date DATE, node_id VARCHAR, full_name VARCHAR, latest_release_tag VARCHAR, latest_release_at TIMESTAMP";

export const RAW_PYPI_PROJECTS_COLUMNS =
  "run_date DATE, package VARCHAR, repo_full_name VARCHAR, version VARCHAR, latest_release_at TIMESTAMP";

export const RAW_NPM_PACKAGES_COLUMNS =
  "run_date DATE, package VARCHAR, repo_full_name VARCHAR, version VARCHAR, version_published_at TIMESTAMP";

export const RAW_NPM_DOWNLOADS_COLUMNS =
  "run_date DATE, package VARCHAR, start_date DATE, end_date DATE, downloads BIGINT";

export const FEAT_PACKAGES_COLUMNS =
  "registry VARCHAR, package VARCHAR, repo_full_name VARCHAR, version VARCHAR, license VARCHAR, " +
  "versions_total INTEGER, stable_releases INTEGER, prereleases INTEGER, first_release_at TIMESTAMP, " +
  "latest_release_at TIMESTAMP, downloads_monthly BIGINT, downloads_weekly BIGINT, pulls_total BIGINT, " +
  "likes INTEGER, dependencies VARCHAR[], deprecated BOOLEAN, as_of DATE, dependents BIGINT, is_stale BOOLEAN";

export const RAW_HN_POSTS_COLUMNS =
  "run_date DATE, object_id VARCHAR, title VARCHAR, url VARCHAR, repo_full_name VARCHAR, points INTEGER, " +
  "num_comments INTEGER, created_at TIMESTAMP, author VARCHAR";

export const RAW_ARXIV_PAPERS_COLUMNS =
  "run_date DATE, arxiv_id VARCHAR, repo_full_names VARCHAR[], title VARCHAR, summary VARCHAR, " +
  "authors VARCHAR[], published_at TIMESTAMP, updated_at TIMESTAMP, primary_category VARCHAR, " +
  "categories VARCHAR[], abs_url VARCHAR, pdf_url VARCHAR";

export const RELEASES_COLUMNS =
  "full_name VARCHAR, source VARCHAR, package VARCHAR, version VARCHAR, released_at TIMESTAMP, " +
  "is_prerelease BOOLEAN, first_seen DATE, node_id VARCHAR";

export const POSTS_COLUMNS =
  "object_id VARCHAR, title VARCHAR, url VARCHAR, hn_url VARCHAR, full_name VARCHAR, slug VARCHAR, " +
  "domain VARCHAR, points INTEGER, comments INTEGER, author VARCHAR, created_at TIMESTAMP";
