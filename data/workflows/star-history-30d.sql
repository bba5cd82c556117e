-- title: 30-day star history of one project
-- description: Daily snapshots of one repository over the last 30 days: stars, stars gained since the
--   previous snapshot, quality score and lifecycle stage.
-- param: repo (default ollama/ollama, from projects.full_name): the repository, as owner/name
WITH params AS (SELECT $1::VARCHAR AS full_name)
SELECT
  s.date,
  s.stars,
  s.stars - lag(s.stars) OVER (ORDER BY s.date) AS stars_gained,
  s.quality_score,
  s.lifecycle_stage
FROM snapshots s, params
WHERE s.full_name = params.full_name AND s.date > (SELECT max(date) FROM snapshots) - 30
ORDER BY s.date;
