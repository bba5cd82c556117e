-- snapshots (kept table, DDL in kept/snapshots.sql): tonight's row for every tracked repository, replacing a
-- rerun's; nights older than snapshot_days leave the warehouse (the history's Parquet files keep them all).
DELETE FROM snapshots
WHERE date = getvariable('run_date') OR date <= getvariable('run_date') - getvariable('snapshot_days');
INSERT INTO snapshots
SELECT
  run_date, node_id, full_name, stars, forks, watchers, open_issues, contributors, commits_30d, downloads_monthly,
  dependents, quality_score, maintenance_score, adoption_score, maturity_score, community_score, quality_tier,
  lifecycle_stage
FROM projects;
