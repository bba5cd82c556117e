-- snapshots (kept table, DDL in kept/snapshots.sql): tonight's row for every tracked repository, replacing a
-- rerun's; nights older than snapshot_days leave the warehouse (the history's Parquet files keep them all).
-- Downloads are unknown (NULL) on a night no registry counting downloads (PyPI, npm, Hugging Face) had been read by:
-- projects' 0 then means nothing was collected, not nothing downloaded (the API's history says null there too). A
-- release built from a list (pipeline/lists/) reads no registry but states its figures: those above 0 are kept, and
-- so are its 0s when it states an unknown figure as NULL, as a list does and the nightly's projects never do.
DELETE FROM snapshots
WHERE date = getvariable('run_date') OR date <= getvariable('run_date') - getvariable('snapshot_days');
INSERT INTO snapshots
WITH figures AS (
  -- whether tonight's figures were read: a registry had been by tonight, or the projects come from a list
  SELECT (
    EXISTS (SELECT 1 FROM raw_pypi_downloads WHERE run_date <= getvariable('run_date'))
    OR EXISTS (SELECT 1 FROM raw_npm_downloads WHERE run_date <= getvariable('run_date'))
    OR EXISTS (SELECT 1 FROM raw_hf_models WHERE run_date <= getvariable('run_date'))
    OR EXISTS (SELECT 1 FROM projects WHERE downloads_monthly IS NULL)
  ) AS known
)
SELECT
  run_date, node_id, full_name, stars, forks, watchers, open_issues, contributors, commits_30d,
  CASE WHEN f.known OR downloads_monthly <> 0 THEN downloads_monthly END AS downloads_monthly, dependents,
  quality_score, maintenance_score, adoption_score, maturity_score, community_score, quality_tier, lifecycle_stage
FROM projects
CROSS JOIN figures f;
