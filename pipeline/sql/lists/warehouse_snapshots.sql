-- The snapshots of a replayed list's nights before its last (the last is the nightly's own snapshots.sql, run on the
-- last night's projects): each listed project's stage, score, tier and stars that night (list_replay, written by the
-- nightly's SQL night by night) beside the figures the list recorded (list_history). The replay keeps each night's
-- score, not its four components, so those are unknown (NULL) on earlier nights, as are figures the list lacked;
-- the table's NOT NULL on them is dropped for this warehouse only. Monthly downloads are read as rate's mapping reads
-- them (pipeline/sql/rate/feat_repos.sql): PyPI plus npm when either is known, else best-of's all-registry figure.
ALTER TABLE snapshots ALTER COLUMN forks DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN watchers DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN open_issues DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN commits_30d DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN downloads_monthly DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN dependents DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN maintenance_score DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN adoption_score DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN maturity_score DROP NOT NULL;
ALTER TABLE snapshots ALTER COLUMN community_score DROP NOT NULL;
INSERT INTO snapshots BY NAME
SELECT
  r.date,
  r.node_id,
  h.name_then AS full_name,
  r.stars,
  CAST(round(h.fork_count) AS INTEGER) AS forks,
  CAST(round(h.watchers_count) AS INTEGER) AS watchers,
  CAST(round(h.open_issue_count) AS INTEGER) AS open_issues,
  CAST(round(h.contributor_count) AS INTEGER) AS contributors,
  h.commits_30d,
  CAST(round(CASE WHEN coalesce(h.pypi_monthly_downloads, h.npm_monthly_downloads) IS NOT NULL
    THEN coalesce(h.pypi_monthly_downloads, 0) + coalesce(h.npm_monthly_downloads, 0)
    ELSE h.monthly_downloads END) AS BIGINT) AS downloads_monthly,
  CAST(round(h.dependent_project_count) AS INTEGER) AS dependents,
  r.quality_score,
  NULL AS maintenance_score,
  NULL AS adoption_score,
  NULL AS maturity_score,
  NULL AS community_score,
  r.quality_tier,
  r.lifecycle_stage
FROM list_replay r
JOIN list_history h ON r.node_id = 'line:' || h.project AND r.date = h.snapshot_date
WHERE r.date < getvariable('run_date') AND r.stars IS NOT NULL
ORDER BY r.date, r.node_id;
