-- The scoring benchmark's kept tables as earlier nights left them: the warehouse's window of snapshots and every stage so far
INSERT INTO snapshots BY NAME
SELECT
  run_date AS date, node_id, full_name, stars, forks, watchers, open_issues, NULL::INTEGER AS contributors, commits_30d,
  0 AS downloads_monthly, 0 AS dependents, 40 + (hash(node_id) % 40)::INTEGER AS quality_score, 10 AS maintenance_score,
  10 AS adoption_score, 10 AS maturity_score, 10 + (hash(node_id) % 15)::INTEGER AS community_score,
  CASE WHEN hash(node_id) % 40 >= 20 THEN 'established' ELSE 'emerging' END AS quality_tier,
  CASE WHEN stars >= 500 THEN 'established' ELSE 'emerging' END AS lifecycle_stage
FROM raw_github_repos
WHERE run_date >= DATE ${last_night} - ${snapshot_nights} AND run_date < DATE ${last_night} - 5;

INSERT INTO transitions
SELECT node_id, full_name, run_date, NULL, CASE WHEN stars >= 500 THEN 'established' ELSE 'emerging' END
FROM raw_github_repos
WHERE run_date = DATE ${last_night} - ${nights};
