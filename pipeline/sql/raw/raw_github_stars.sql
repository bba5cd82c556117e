-- raw_github_stars: the recent star history of a repository newly tracked that night, read from the end of
-- its stargazer list (pipeline/sources/github/stargazers.ts), so that its 7- and 30-day star deltas exist from
-- the first night. One row per day reached among the 30 days before the run date: `stars` is the count at
-- 00:00 UTC of `day` (stargazers listed with starred_at before it), i.e. what a nightly run on `day` would
-- have seen, so a delta joins raw_github_repos on its run_date: stars(run_date) - stars(day = run_date - 7).
-- Counts are of the list as read on run_date (someone who unstarred since is not in any day). Days the pages
-- read do not reach (MAX_PAGES per repository) have no row; a repository over GitHub's 40,000-stargazer list
-- cap, or past the night's REST budget, has none at all.
CREATE TABLE IF NOT EXISTS raw_github_stars (
  run_date DATE NOT NULL,               -- the night the history was read (the repository's first)
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  day DATE NOT NULL,                    -- one of run_date - 30 … run_date - 1
  stars BIGINT NOT NULL,                -- stargazers at 00:00 UTC of day
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, node_id, day)
);
