-- ds_velocity: the commit-activity leaderboard, every tracked repository ranked by commits_30d (GitHub's count on
-- the default branch over 30 days), ties broken by commits_4w (the last velocity_weeks weeks of GitHub's REST weekly
-- counts, NULL when unknown or fetched too long ago), commits_90d, stars, full_name. rank overall, domain_rank within.
CREATE OR REPLACE TABLE ds_velocity AS
WITH weeks AS (
  SELECT
    node_id,
    -- commit_weeks is oldest first, its last entry the current (partial) week
    list_sum(commit_weeks[len(commit_weeks) - getvariable('velocity_weeks') + 1:]) AS commits_4w
  FROM feat_repos
  WHERE len(commit_weeks) >= getvariable('velocity_weeks')
    AND activity_as_of > getvariable('run_date') - getvariable('velocity_weeks_max_age_days')
),
ranked AS (
  SELECT
    p.domain,
    p.stack_layer,
    p.full_name,
    p.slug,
    p.stars,
    p.commits_30d,
    w.commits_4w,
    p.commits_90d,
    p.contributors,
    row_number() OVER (
      ORDER BY p.commits_30d DESC, w.commits_4w DESC NULLS LAST, p.commits_90d DESC, p.stars DESC, p.full_name
    ) AS rank
  FROM projects p
  LEFT JOIN weeks w USING (node_id)
)
SELECT
  rank,
  row_number() OVER (PARTITION BY domain ORDER BY rank) AS domain_rank,
  * EXCLUDE (rank)
FROM ranked
ORDER BY rank;
