-- feat_tracked: the tracked set, one row per repository (GitHub node id) ever collected into raw_github_repos
-- up to the run date, read from repo_names (folded night by night, see kept/repo_names.sql). A rename keeps the
-- node id, so a renamed repository stays one row: full_name is its latest name, previous_names the ones it had
-- before (ordered by the last night each was used), renamed_on the night it last took up its latest name.
-- deleted_on is the first night GitHub answered NOT_FOUND for it (raw_github_gone) after it was last seen; a
-- repository seen again after that is not gone. tracked: seen within ${tracked_for_days} days
-- (TRACKED_FOR_DAYS) of the latest run and not gone, the set the nightly refresh asks GitHub for.
CREATE OR REPLACE TABLE feat_tracked AS
WITH names AS (
  SELECT * FROM repo_names WHERE first_seen <= getvariable('run_date')
),
spans AS (
  SELECT
    node_id,
    min(first_seen) AS first_seen,
    max(least(last_seen, getvariable('run_date'))) AS last_seen,
    arg_max(full_name, least(last_seen, getvariable('run_date'))) AS full_name
  FROM names
  GROUP BY node_id
),
previous AS (
  SELECT n.node_id, list(n.full_name ORDER BY n.last_seen, n.full_name) AS previous_names
  FROM names n
  JOIN spans s USING (node_id)
  WHERE n.full_name <> s.full_name
  GROUP BY n.node_id
),
gone AS (
  SELECT g.node_id, min(g.run_date) AS deleted_on
  FROM raw_github_gone g
  JOIN spans s USING (node_id)
  WHERE g.run_date <= getvariable('run_date') AND g.run_date > s.last_seen
  GROUP BY g.node_id
),
latest_run AS (
  SELECT max(last_seen) AS run_date FROM spans
)
SELECT
  s.node_id,
  s.full_name,
  s.first_seen,
  s.last_seen,
  coalesce(p.previous_names, []::VARCHAR[]) AS previous_names,
  CASE WHEN p.previous_names IS NOT NULL THEN n.stint_start END AS renamed_on,
  g.deleted_on,
  g.deleted_on IS NULL AND s.last_seen >= l.run_date - ${tracked_for_days} AS tracked
FROM spans s
CROSS JOIN latest_run l
JOIN names n ON n.node_id = s.node_id AND n.full_name = s.full_name
LEFT JOIN previous p ON p.node_id = s.node_id
LEFT JOIN gone g ON g.node_id = s.node_id
ORDER BY s.node_id;
