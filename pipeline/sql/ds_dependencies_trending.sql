-- ds_dependencies_trending: PyPI and npm packages of tracked projects with rising downloads, top N per registry:
-- growth_pct is the last week's daily rate against the last month's (pypistats, npm daily series), else for npm the
-- monthly total against the one read 7 to 14 days before (dependencies_compare_*); capped, above a monthly floor.
CREATE OR REPLACE TABLE ds_dependencies_trending AS
WITH npm_points AS (
  -- monthly totals read lately; a point row spans a month (a daily-series row has start = end)
  SELECT package, run_date, downloads
  FROM raw_npm_downloads
  WHERE end_date - start_date >= 27
    AND run_date <= getvariable('run_date')
    AND run_date > getvariable('run_date') - getvariable('package_stale_days') - getvariable('dependencies_compare_max_days')
),
npm_now AS (
  SELECT package, run_date, downloads
  FROM npm_points
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
npm_then AS (
  SELECT 'npm' AS registry, t.package, t.downloads
  FROM npm_points t
  JOIN npm_now n USING (package)
  WHERE t.run_date <= n.run_date - getvariable('dependencies_compare_days')
    AND t.run_date >= n.run_date - getvariable('dependencies_compare_max_days')
  QUALIFY row_number() OVER (PARTITION BY t.package ORDER BY t.run_date DESC) = 1
),
growth AS (
  SELECT
    f.registry,
    f.package,
    f.repo_full_name,
    f.downloads_monthly,
    f.downloads_weekly,
    f.dependents,
    -- both sources' "last month" is 30 days: compare the daily rates of the last 7 days and the last 30
    CASE
      WHEN f.downloads_weekly IS NOT NULL THEN 100.0 * (f.downloads_weekly / 7) / (f.downloads_monthly / 30) - 100
      WHEN t.downloads > 0 THEN 100.0 * (f.downloads_monthly - t.downloads) / t.downloads
    END AS growth,
    CASE WHEN f.downloads_weekly IS NOT NULL THEN 'weekly_rate' WHEN t.downloads > 0 THEN 'monthly_total' END AS method
  FROM feat_packages f
  LEFT JOIN npm_then t ON t.registry = f.registry AND t.package = f.package
  WHERE f.registry IN ('pypi', 'npm')
    AND NOT f.is_stale
    AND f.downloads_monthly >= getvariable('dependencies_min_monthly')
)
SELECT
  g.registry,
  row_number() OVER (
    PARTITION BY g.registry ORDER BY least(g.growth, getvariable('dependencies_growth_cap_pct')) DESC,
      g.downloads_monthly DESC, g.package
  ) AS rank,
  g.package,
  p.full_name,
  p.domain,
  g.downloads_monthly,
  g.downloads_weekly,
  round(least(g.growth, getvariable('dependencies_growth_cap_pct')), 1) AS growth_pct,
  g.method,
  g.dependents
FROM growth g
JOIN projects p ON lower(p.full_name) = g.repo_full_name
WHERE g.growth > 0
QUALIFY rank <= getvariable('dependencies_trending_size')
ORDER BY g.registry, rank;
