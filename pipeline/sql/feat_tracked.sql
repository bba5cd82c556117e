-- feat_tracked: the tracked set, one row per repository (GitHub node id) ever collected into raw_github_repos
-- up to the run date. A rename keeps the node id, so a renamed repository stays one row: full_name is its
-- latest name, previous_names the ones it had before (oldest first), renamed_on the first night under its
-- latest name. deleted_on is the first night GitHub answered NOT_FOUND for it (raw_github_gone) after it was
-- last seen; a repository seen again after that is not gone. tracked: seen within ${tracked_for_days} days
-- (TRACKED_FOR_DAYS) of the latest run and not gone, the set the nightly refresh asks GitHub for.
CREATE OR REPLACE TABLE feat_tracked AS
WITH seen AS (
  SELECT node_id, run_date, full_name
  FROM raw_github_repos
  WHERE run_date <= getvariable('run_date')
),
spans AS (
  SELECT node_id, min(run_date) AS first_seen, max(run_date) AS last_seen, arg_max(full_name, run_date) AS full_name
  FROM seen
  GROUP BY node_id
),
names AS (
  -- every earlier name once, ordered by the last night it was used
  SELECT n.node_id, list(n.full_name ORDER BY n.last_used, n.full_name) AS previous_names
  FROM (SELECT node_id, full_name, max(run_date) AS last_used FROM seen GROUP BY node_id, full_name) n
  JOIN spans s USING (node_id)
  WHERE n.full_name <> s.full_name
  GROUP BY n.node_id
),
renames AS (
  -- the nights a repository showed another name than on its previous night
  SELECT node_id, max(run_date) AS renamed_on
  FROM (
    SELECT node_id, run_date, full_name, lag(full_name) OVER (PARTITION BY node_id ORDER BY run_date) AS before
    FROM seen
  )
  WHERE before <> full_name
  GROUP BY node_id
),
gone AS (
  SELECT g.node_id, min(g.run_date) AS deleted_on
  FROM raw_github_gone g
  JOIN spans s USING (node_id)
  WHERE g.run_date <= getvariable('run_date') AND g.run_date > s.last_seen
  GROUP BY g.node_id
),
latest_run AS (
  SELECT max(run_date) AS run_date FROM seen
)
SELECT
  s.node_id,
  s.full_name,
  s.first_seen,
  s.last_seen,
  coalesce(n.previous_names, []::VARCHAR[]) AS previous_names,
  r.renamed_on,
  g.deleted_on,
  g.deleted_on IS NULL AND s.last_seen >= l.run_date - ${tracked_for_days} AS tracked
FROM spans s
CROSS JOIN latest_run l
LEFT JOIN names n USING (node_id)
LEFT JOIN renames r USING (node_id)
LEFT JOIN gone g USING (node_id)
ORDER BY s.node_id;
