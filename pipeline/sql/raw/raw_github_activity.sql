-- raw_github_activity: one row per repository per run day from GitHub REST, for the repositories refreshed
-- with the full details query that night (pipeline/sources/github/activity.ts). NULL where GitHub did not
-- say (gone, still computing, quarantined). Rows past the night's REST budget carry the last values forward
-- with their older activity_as_of.
CREATE TABLE IF NOT EXISTS raw_github_activity (
  run_date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  contributors INTEGER,                 -- anonymous contributors included (anon=1)
  commits_52w INTEGER,                  -- sum of commit_weeks
  commit_weeks INTEGER[],               -- 52 weekly commit counts, oldest first
  issue_response_median_hours DOUBLE,   -- median hours from opening to first comment or close
  issues_sampled INTEGER,               -- issues (not PRs) of the last 90 days the median is over
  activity_as_of DATE NOT NULL,         -- the run date these values were fetched on
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, node_id)
);
