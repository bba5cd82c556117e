-- raw_github_repos: one row per repository per run day, as the GitHub GraphQL API reported it.
-- Written by pipeline/sources/github (toRows); untouched source facts, no derivations.
CREATE TABLE IF NOT EXISTS raw_github_repos (
  run_date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  owner VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  description VARCHAR,
  homepage VARCHAR,
  language VARCHAR,
  license VARCHAR,              -- SPDX identifier; NULL when GitHub reports none or NOASSERTION
  topics VARCHAR[] NOT NULL,
  stars INTEGER NOT NULL,
  forks INTEGER NOT NULL,
  watchers INTEGER NOT NULL,
  open_issues INTEGER NOT NULL,
  closed_issues INTEGER NOT NULL,
  open_prs INTEGER NOT NULL,
  merged_prs INTEGER NOT NULL,
  created_at TIMESTAMP NOT NULL,
  pushed_at TIMESTAMP,
  updated_at TIMESTAMP NOT NULL,
  is_archived BOOLEAN NOT NULL,
  is_fork BOOLEAN NOT NULL,
  default_branch VARCHAR,       -- NULL for an empty repository
  last_commit_at TIMESTAMP,
  commits_30d INTEGER NOT NULL,
  commits_90d INTEGER NOT NULL,
  commits_365d INTEGER NOT NULL,
  releases_total INTEGER NOT NULL,
  latest_release_tag VARCHAR,
  latest_release_at TIMESTAMP,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, node_id)
);
-- Tiered refresh (pipeline/schedule/tiers.ts), added later and nullable so earlier warehouses keep working:
-- refresh_tier is 'full' (every column fetched on run_date) or 'light' (stars, forks, watchers, times, flags
-- and texts fetched on run_date; the other counts carried forward from the full refresh of details_as_of).
ALTER TABLE raw_github_repos ADD COLUMN IF NOT EXISTS details_as_of DATE;
ALTER TABLE raw_github_repos ADD COLUMN IF NOT EXISTS refresh_tier VARCHAR;
