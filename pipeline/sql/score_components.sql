-- score_components: the points each repository earns for every input of the four components, before
-- summing. Kept as a table so every published score can be explained input by input. Each part is an
-- integer no larger than its named maximum, and each component's maxima add up to 25.
CREATE OR REPLACE TABLE score_components AS
WITH inputs AS (
  SELECT
    f.node_id,
    f.is_archived,
    f.commits_90d,
    date_diff('day', f.last_commit_at, getvariable('run_date')) AS days_since_commit,
    date_diff('day', greatest(f.latest_release_at, f.pypi_latest_release_at), getvariable('run_date'))
      AS days_since_release,
    f.open_issues,
    f.closed_issues,
    f.pypi_package IS NOT NULL AS has_package,
    f.downloads_monthly,
    date_diff('day', f.created_at, getvariable('run_date')) AS age_days,
    greatest(f.releases_total, f.pypi_stable_releases) AS stable_releases,
    coalesce(
      TRY_CAST(regexp_extract(coalesce(f.pypi_version, f.latest_release_tag, ''), '^v?(\d+)\.', 1) AS INTEGER),
      0
    ) >= 1 AS is_v1,
    f.license IS NOT NULL AS has_license,
    coalesce(f.description, '') <> '' AS has_description,
    coalesce(f.homepage, '') <> '' AS has_homepage,
    f.stars,
    f.forks,
    f.watchers
  FROM feat_repos f
),
-- Log-scale parts are ln(1 + x) / ln(1 + cap), capped at 1. Recency parts fall linearly from full to zero;
-- an unknown date earns nothing (DuckDB's least/greatest skip NULLs, hence the explicit CASE).
parts AS (
  SELECT
    *,
    CAST(round(least(ln(1 + commits_90d) / ln(1 + getvariable('commits_90d_cap')), 1)
      * getvariable('commits_points')) AS INTEGER) AS m_commits,
    CASE WHEN days_since_commit IS NULL THEN 0 ELSE CAST(round(greatest(0, least(1,
      (getvariable('last_commit_zero_days') - days_since_commit)
        / (getvariable('last_commit_zero_days') - getvariable('last_commit_full_days'))))
      * getvariable('last_commit_points')) AS INTEGER) END AS m_last_commit,
    CASE WHEN days_since_release IS NULL THEN 0 ELSE CAST(round(greatest(0, least(1,
      (getvariable('release_zero_days') - days_since_release)
        / (getvariable('release_zero_days') - getvariable('release_full_days'))))
      * getvariable('release_recency_points')) AS INTEGER) END AS m_release,
    CAST(round(CASE WHEN open_issues + closed_issues = 0 THEN 0.5
      ELSE closed_issues / (open_issues + closed_issues) END
      * getvariable('issue_closure_points')) AS INTEGER) AS m_issues,
    CASE WHEN has_package THEN getvariable('package_points') ELSE 0 END AS a_package,
    CAST(round(least(ln(1 + downloads_monthly) / ln(1 + getvariable('downloads_monthly_cap')), 1)
      * getvariable('downloads_points')) AS INTEGER) AS a_downloads,
    CAST(round(greatest(0, least(1, age_days / getvariable('age_full_days'))) * getvariable('age_points'))
      AS INTEGER) AS t_age,
    CAST(round(least(ln(1 + stable_releases) / ln(1 + getvariable('releases_cap')), 1)
      * getvariable('releases_points')) AS INTEGER) AS t_releases,
    CASE WHEN is_v1 THEN getvariable('stable_version_points') ELSE 0 END AS t_stable_version,
    CASE WHEN has_license THEN getvariable('license_points') ELSE 0 END AS t_license,
    (CASE WHEN has_description THEN 1 ELSE 0 END) + (CASE WHEN has_homepage THEN 2 ELSE 0 END) AS t_docs,
    CAST(round(least(ln(1 + stars) / ln(1 + getvariable('stars_cap')), 1) * getvariable('stars_points'))
      AS INTEGER) AS c_stars,
    CAST(round(least(ln(1 + forks) / ln(1 + getvariable('forks_cap')), 1) * getvariable('forks_points'))
      AS INTEGER) AS c_forks,
    CAST(round(least(ln(1 + watchers) / ln(1 + getvariable('watchers_cap')), 1) * getvariable('watchers_points'))
      AS INTEGER) AS c_watchers
  FROM inputs
)
SELECT
  *,
  -- an archived repository is declared unmaintained by its owners
  CASE WHEN is_archived THEN 0 ELSE m_commits + m_last_commit + m_release + m_issues END AS maintenance_score,
  a_package + a_downloads AS adoption_score,
  t_age + t_releases + t_stable_version + t_license + t_docs AS maturity_score,
  c_stars + c_forks + c_watchers AS community_score
FROM parts;
