-- feat_repos: the latest known facts of every tracked repository as of the run date, one row each.
-- A repository missing from today's collect keeps its last snapshot (carried forward) and is flagged stale.
CREATE OR REPLACE TABLE feat_repos AS
WITH latest AS (
  SELECT *
  FROM raw_github_repos
  WHERE run_date <= getvariable('run_date')
  QUALIFY row_number() OVER (PARTITION BY node_id ORDER BY run_date DESC) = 1
),
pypi AS (
  SELECT *
  FROM raw_pypi_projects
  WHERE run_date <= getvariable('run_date') AND repo_full_name IS NOT NULL
  -- one package per repository: the most downloaded is chosen below; here the latest row per package
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
downloads AS (
  SELECT package, last_month
  FROM raw_pypi_downloads
  WHERE run_date <= getvariable('run_date')
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
package_per_repo AS (
  SELECT
    p.repo_full_name,
    p.package,
    p.version,
    p.releases_total,
    p.stable_releases,
    p.latest_release_at,
    coalesce(d.last_month, 0) AS downloads_monthly
  FROM pypi p
  LEFT JOIN downloads d USING (package)
  QUALIFY row_number() OVER (PARTITION BY p.repo_full_name ORDER BY coalesce(d.last_month, 0) DESC, p.package) = 1
)
SELECT
  l.*,
  l.run_date < getvariable('run_date') AS is_stale,
  lower(l.owner) || '--' || lower(l.name) AS slug,
  k.package AS pypi_package,
  k.version AS pypi_version,
  coalesce(k.stable_releases, 0) AS pypi_stable_releases,
  k.latest_release_at AS pypi_latest_release_at,
  coalesce(k.downloads_monthly, 0) AS downloads_monthly
FROM latest l
LEFT JOIN package_per_repo k ON k.repo_full_name = lower(l.full_name);
