-- The replay's raw_github_repos: what a list records of what the nightly collects from GitHub that the history's
-- SQL reads (feat_stars.sql: each night's star count). A list has no node id, forks-by-night or commit dates, so the
-- nightly's table (raw/raw_github_repos.sql, NOT NULL throughout) is replaced by these columns, written for every
-- night at once from list_history (list_nights.sql). Run after the nightly's empty feat_* tables are built from its own.
DROP TABLE IF EXISTS raw_github_repos;
CREATE TABLE raw_github_repos (
  run_date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  stars INTEGER NOT NULL,
  PRIMARY KEY (run_date, node_id)
);
-- each listed project's lifecycle stage on each night (night_output.sql)
CREATE OR REPLACE TABLE list_stages (
  node_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  lifecycle_stage VARCHAR NOT NULL
);
-- what the replay prints: one row per project and night (list_replay.sql)
CREATE OR REPLACE TABLE list_replay (
  node_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  lifecycle_stage VARCHAR NOT NULL,
  quality_score INTEGER NOT NULL,
  quality_tier VARCHAR NOT NULL,
  stars INTEGER,
  stars_7d_delta BIGINT,
  stars_30d_delta BIGINT,
  momentum DOUBLE
);
