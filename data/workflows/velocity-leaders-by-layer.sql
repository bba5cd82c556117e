-- title: Velocity leaders per stack layer
-- description: The five repositories of each stack layer with the most commits in the last 30 days, with
--   their 90-day commits, contributors and quality score. Archived repositories are left out.
SELECT
  stack_layer,
  full_name,
  commits_30d,
  commits_90d,
  contributors,
  quality_score
FROM projects
WHERE NOT is_archived AND commits_30d > 0
QUALIFY row_number() OVER (PARTITION BY stack_layer ORDER BY commits_30d DESC, full_name) <= 5
ORDER BY stack_layer, commits_30d DESC, full_name;
