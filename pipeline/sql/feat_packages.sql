-- feat_packages: every registry package linked to a tracked repository, one row per (registry, package), with its
-- latest known facts as of the run date (PyPI, npm, Docker Hub, Hugging Face Hub) and its dependents among them.
-- A package keeps its last row between refreshes (registries follow GitHub's tiers); is_stale flags a row older
-- than getvariable('package_stale_days'), which no tier allows, so a quarantined answer is visible; one not seen
-- for package_window_days is no longer listed (the link was dropped or the package removed).
CREATE OR REPLACE TABLE feat_packages AS
WITH pypi AS (
  SELECT *
  FROM raw_pypi_projects
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
    AND repo_full_name IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
pypi_downloads AS (
  SELECT package, last_week, last_month, run_date
  FROM raw_pypi_downloads
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
npm AS (
  SELECT *
  FROM raw_npm_packages
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
    AND repo_full_name IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC) = 1
),
npm_month AS (
  -- last month's total: the latest point row spanning a month
  SELECT package, downloads, run_date
  FROM raw_npm_downloads
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
    AND end_date - start_date >= 27
  QUALIFY row_number() OVER (PARTITION BY package ORDER BY run_date DESC, end_date DESC) = 1
),
npm_week AS (
  -- the last 7 days of the latest daily series, where one was read
  SELECT package, sum(downloads) AS downloads
  FROM (
    SELECT package, end_date, downloads,
      max(end_date) OVER (PARTITION BY package) AS last_day
    FROM raw_npm_downloads
    WHERE run_date <= getvariable('run_date') AND start_date = end_date
      AND run_date >= getvariable('run_date') - getvariable('package_stale_days')
  )
  WHERE end_date > last_day - 7
  GROUP BY package
),
docker AS (
  SELECT *
  FROM raw_dockerhub_repos
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
  QUALIFY row_number() OVER (PARTITION BY image ORDER BY run_date DESC) = 1
),
hf AS (
  SELECT *
  FROM raw_hf_models
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('package_window_days')
  QUALIFY row_number() OVER (PARTITION BY model_id ORDER BY run_date DESC) = 1
),
packages AS (
  SELECT
    'pypi' AS registry, p.package, p.repo_full_name, p.version, p.license, p.releases_total AS versions_total,
    p.stable_releases, p.releases_total - p.stable_releases AS prereleases, p.first_release_at,
    p.latest_release_at, coalesce(d.last_month, 0) AS downloads_monthly, d.last_week AS downloads_weekly,
    NULL::BIGINT AS pulls_total, NULL::INTEGER AS likes,
    -- "torch (>=2.0) ; extra == 'x'" -> torch; PEP 503 normalised; optional extras left out
    list_distinct(list_transform(
      list_filter(p.requires_dist, r -> r NOT LIKE '%extra ==%' AND r NOT LIKE '%extra==%'),
      r -> regexp_replace(lower(regexp_extract(r, '^\s*([A-Za-z0-9][A-Za-z0-9._-]*)', 1)), '[-_.]+', '-', 'g')
    )) AS dependencies,
    false AS deprecated, p.run_date AS as_of
  FROM pypi p
  LEFT JOIN pypi_downloads d USING (package)
  UNION ALL
  SELECT
    'npm', n.package, n.repo_full_name, n.version, NULL, n.versions_total, NULL, NULL, n.first_release_at,
    n.latest_release_at, coalesce(m.downloads, 0), w.downloads, NULL, NULL, n.dependencies, n.deprecated, n.run_date
  FROM npm n
  LEFT JOIN npm_month m USING (package)
  LEFT JOIN npm_week w USING (package)
  UNION ALL
  -- Docker Hub counts pulls since the image was registered, not per month
  SELECT
    'docker', image, repo_full_name, NULL, NULL, NULL, NULL, NULL, date_registered, last_updated, 0, NULL,
    pull_count, star_count, []::VARCHAR[], status IS NOT NULL AND status NOT IN ('active', ''), run_date
  FROM docker
  UNION ALL
  -- the Hub's downloads are those of the last 30 days
  SELECT
    'huggingface', model_id, repo_full_name, NULL, license, NULL, NULL, NULL, created_at, last_modified,
    coalesce(downloads, 0), NULL, NULL, likes, []::VARCHAR[], false, run_date
  FROM hf
),
dependents AS (
  -- how many other tracked repositories have a package on the same registry that declares this one a dependency
  SELECT t.registry, t.package, count(DISTINCT q.repo_full_name) AS dependents
  FROM packages t
  JOIN (
    SELECT registry, repo_full_name, unnest(dependencies) AS dep FROM packages WHERE registry IN ('pypi', 'npm')
  ) q ON q.registry = t.registry AND q.dep = t.package AND q.repo_full_name <> t.repo_full_name
  GROUP BY ALL
)
SELECT
  p.*,
  coalesce(d.dependents, 0) AS dependents,
  getvariable('run_date') - p.as_of > getvariable('package_stale_days') AS is_stale
FROM packages p
LEFT JOIN dependents d USING (registry, package)
ORDER BY p.registry, p.package;
