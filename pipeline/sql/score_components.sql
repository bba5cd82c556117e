-- score_components: per repository every input of the four components and the whole points each part earned,
-- then the components (integers 0–25). Each part is at most its *_points maximum and those add up to 25, so
-- no component can pass 25. An unknown input earns the share its component's known inputs earned together, so the
-- component is scored from what is known. Constants: pipeline/methodology/score.ts; rules: docs/methodology.md.
CREATE OR REPLACE TABLE score_components AS
WITH inputs AS (
  SELECT
    f.node_id,
    coalesce(f.is_archived, false) AS is_archived,
    -- maintenance (an unknown or negative count reads as 0, except where a fallback is named)
    greatest(coalesce(f.commits_90d, 0), 0) AS commits_90d,
    -- weeks with a commit from REST; without it, at most one week per commit of the year (GraphQL); with neither
    -- (a `projintel rate` input without them) unknown
    CASE WHEN f.commit_weeks IS NOT NULL THEN len(list_filter(f.commit_weeks, w -> w > 0))
      WHEN f.commits_365d IS NOT NULL THEN least(greatest(f.commits_365d, 0), 52) END AS active_weeks,
    f.commit_weeks IS NOT NULL AS active_weeks_known,
    date_diff('day', coalesce(f.last_commit_at, f.pushed_at), getvariable('run_date')) AS days_since_commit,
    f.last_commit_at IS NULL AND f.pushed_at IS NOT NULL AS days_since_commit_from_push,
    CASE WHEN f.issues_sampled >= getvariable('issue_response_min_sampled') AND isfinite(f.issue_response_median_hours)
      THEN round(greatest(f.issue_response_median_hours, 0), 1) END AS issue_response_hours,
    greatest(coalesce(f.open_issues, 0), 0) AS open_issues,
    -- DuckDB's greatest skips NULLs: the newest release any source knows of
    date_diff('day', greatest(f.latest_release_at, f.pypi_latest_release_at, f.npm_latest_release_at),
      getvariable('run_date')) AS days_since_release,
    -- adoption: every signal of use, a project without a package included
    greatest(coalesce(f.stars, 0), 0) AS stars,
    greatest(coalesce(f.forks, 0), 0) AS forks,
    -- monthly downloads of PyPI, npm and the Hub, and Docker Hub pulls per month (feat_repos)
    greatest(coalesce(f.downloads_monthly, 0), 0) + greatest(coalesce(f.docker_pulls_monthly, 0), 0)
      AS downloads_and_pulls_monthly,
    greatest(coalesce(f.dependents, 0), 0) AS dependents,
    greatest(coalesce(f.registry_likes, 0), 0) AS registry_likes,
    -- maturity
    date_diff('day', f.created_at, getvariable('run_date')) AS age_days,
    greatest(coalesce(f.releases_total, 0), coalesce(f.pypi_stable_releases, 0), coalesce(f.npm_versions_total, 0), 0)
      AS releases,
    -- major >= 1 and nothing after the numbers: "v2.1.0" and "1.0" qualify, "0.9.0", "2.0.0rc1", "3.0-beta" do not
    coalesce(list_bool_or(list_transform(
      list_filter([f.pypi_version, f.npm_version, f.latest_release_tag], v -> v IS NOT NULL),
      v -> regexp_matches(v, '^[A-Za-z_.-]*?[vV]?0*[1-9][0-9]*(\.[0-9]+)*$')
    )), false) AS stable_v1,
    -- the share of PyPI releases that are stable; NULL without a PyPI release (only PyPI tells pre-releases apart)
    CASE WHEN f.pypi_stable_releases > 0 OR f.pypi_prereleases > 0
      THEN round(greatest(f.pypi_stable_releases, 0)
        / (greatest(f.pypi_stable_releases, 0)::DOUBLE + greatest(f.pypi_prereleases, 0)), 3) END AS stable_share,
    f.license IS NOT NULL AND f.license <> '' AS has_license,
    (CASE WHEN coalesce(f.description, '') <> '' THEN 1 ELSE 0 END)
      + (CASE WHEN coalesce(f.homepage, '') <> '' THEN 1 ELSE 0 END)
      + (CASE WHEN len(coalesce(f.topics, [])) > 0 THEN 1 ELSE 0 END) AS docs_signals,
    -- community
    -- NULL stays NULL (unknown: scored from the known inputs); DuckDB's greatest would turn it into 0
    CASE WHEN f.contributors IS NOT NULL THEN greatest(f.contributors, 0) END AS contributors,
    -- GitHub always reports it; a `projintel rate` input may not know it (unknown, not zero)
    CASE WHEN f.merged_prs IS NOT NULL THEN greatest(f.merged_prs, 0) END AS merged_prs,
    greatest(coalesce(f.open_issues, 0), 0)::BIGINT + greatest(coalesce(f.closed_issues, 0), 0) AS issues,
    greatest(coalesce(f.watchers, 0), 0) AS watchers
  FROM feat_repos f
),
-- Each share is in [0, 1]: log-scale ones are ln(1 + x) / ln(1 + cap) capped at 1 (x as DOUBLE, so 1 + a huge
-- count cannot overflow); recency ones fall linearly from full to zero, a future date counting as today. An
-- unknown input's share is NULL here and filled in by `known` below.
shares AS (
  SELECT
    *,
    least(ln(1 + commits_90d::DOUBLE) / ln(1 + getvariable('commits_90d_cap')), 1) AS s_commits,
    CASE WHEN active_weeks IS NOT NULL THEN least(active_weeks / getvariable('active_weeks_full'), 1) END
      AS s_active_weeks,
    CASE WHEN days_since_commit IS NULL THEN 0 ELSE greatest(0, least(1,
      (getvariable('last_commit_zero_days') - days_since_commit)
        / (getvariable('last_commit_zero_days') - getvariable('last_commit_full_days')))) END AS s_last_commit,
    CASE WHEN issue_response_hours IS NULL THEN NULL
      WHEN issue_response_hours >= getvariable('issue_response_zero_hours') THEN 0
      ELSE least(1,
        ln(getvariable('issue_response_zero_hours') / greatest(issue_response_hours, getvariable('issue_response_full_hours')))
          / ln(getvariable('issue_response_zero_hours') / getvariable('issue_response_full_hours'))) END AS s_issue_response,
    CASE WHEN days_since_release IS NULL THEN 0 ELSE greatest(0, least(1,
      (getvariable('release_zero_days') - days_since_release)
        / (getvariable('release_zero_days') - getvariable('release_full_days')))) END AS s_release,
    power(least(ln(1 + stars::DOUBLE) / ln(1 + getvariable('stars_cap')), 1), getvariable('adoption_curve')) AS s_stars,
    power(least(ln(1 + forks::DOUBLE) / ln(1 + getvariable('forks_cap')), 1), getvariable('adoption_curve')) AS s_forks,
    power(least(ln(1 + downloads_and_pulls_monthly::DOUBLE) / ln(1 + getvariable('downloads_monthly_cap')), 1), getvariable('adoption_curve')) AS s_downloads,
    power(least(ln(1 + dependents::DOUBLE) / ln(1 + getvariable('dependents_cap')), 1), getvariable('adoption_curve')) AS s_dependents,
    power(least(ln(1 + registry_likes::DOUBLE) / ln(1 + getvariable('likes_cap')), 1), getvariable('adoption_curve')) AS s_likes,
    CASE WHEN age_days IS NULL THEN 0 ELSE greatest(0, least(1, age_days / getvariable('age_full_days'))) END AS s_age,
    least(ln(1 + releases::DOUBLE) / ln(1 + getvariable('releases_cap')), 1) AS s_releases,
    CASE WHEN stable_v1 THEN 1 ELSE 0 END AS s_stable_version,
    -- unknown (NULL) with releases but no PyPI history; none released is nothing stable: 0
    CASE WHEN stable_share IS NOT NULL THEN stable_share WHEN releases = 0 THEN 0 END AS s_stable_share,
    CASE WHEN has_license THEN 1 ELSE 0 END AS s_license,
    docs_signals / 3 AS s_docs,
    -- DuckDB's least skips NULLs, so an unknown count is kept NULL explicitly
    CASE WHEN contributors IS NOT NULL THEN power(least(ln(1 + contributors::DOUBLE)
      / ln(1 + getvariable('contributors_cap')), 1), getvariable('community_curve')) END AS s_contributors,
    CASE WHEN merged_prs IS NOT NULL THEN power(least(ln(1 + merged_prs::DOUBLE) / ln(1 + getvariable('merged_prs_cap')), 1),
      getvariable('community_curve')) END AS s_merged_prs,
    power(least(ln(1 + issues::DOUBLE) / ln(1 + getvariable('issues_cap')), 1), getvariable('community_curve')) AS s_issues,
    power(least(ln(1 + watchers::DOUBLE) / ln(1 + getvariable('watchers_cap')), 1), getvariable('community_curve')) AS s_watchers,
    -- finished, not abandoned: old, stable, still adopted, issues still answered, a commit within the window
    NOT is_archived
      AND coalesce(age_days >= getvariable('finished_min_age_days'), false)
      AND stable_v1
      AND (downloads_and_pulls_monthly >= getvariable('finished_min_downloads_monthly')
        OR dependents >= getvariable('finished_min_dependents'))
      AND (coalesce(issue_response_hours <= getvariable('finished_max_response_hours'), false)
        OR open_issues <= getvariable('finished_max_open_issues'))
      AND coalesce(days_since_commit <= getvariable('finished_commit_window_days'), false) AS is_finished
  FROM inputs
),
-- An unknown input earns the points-weighted mean share of its component's known inputs: the component is scored
-- as if from its known inputs alone, rescaled to their maximum, and the unknown input shows that share's points.
-- Maintenance may lack responsiveness and steady work, maturity the stable share, community contributors and
-- merged pull requests; the other inputs of each component are always known.
known_shares AS (
  SELECT
    *,
    (s_commits * getvariable('commits_90d_points') + coalesce(s_active_weeks, 0) * getvariable('active_weeks_points')
      + s_last_commit * getvariable('last_commit_points') + coalesce(s_issue_response, 0) * getvariable('issue_response_points')
      + s_release * getvariable('release_recency_points'))
      / (getvariable('commits_90d_points') + getvariable('last_commit_points') + getvariable('release_recency_points')
        + CASE WHEN s_active_weeks IS NULL THEN 0 ELSE getvariable('active_weeks_points') END
        + CASE WHEN s_issue_response IS NULL THEN 0 ELSE getvariable('issue_response_points') END) AS k_maintenance,
    (s_age * getvariable('age_points') + s_releases * getvariable('releases_points')
      + s_stable_version * getvariable('stable_version_points') + s_license * getvariable('license_points')
      + s_docs * getvariable('docs_points'))
      / (getvariable('age_points') + getvariable('releases_points') + getvariable('stable_version_points')
        + getvariable('license_points') + getvariable('docs_points')) AS k_maturity,
    (coalesce(s_contributors, 0) * getvariable('contributors_points')
      + coalesce(s_merged_prs, 0) * getvariable('merged_prs_points')
      + s_issues * getvariable('issues_points') + s_watchers * getvariable('watchers_points'))
      / (getvariable('issues_points') + getvariable('watchers_points')
        + CASE WHEN s_contributors IS NULL THEN 0 ELSE getvariable('contributors_points') END
        + CASE WHEN s_merged_prs IS NULL THEN 0 ELSE getvariable('merged_prs_points') END) AS k_community
  FROM shares
),
known AS (
  SELECT
    * EXCLUDE (k_maintenance, k_maturity, k_community) REPLACE (
      coalesce(s_active_weeks, k_maintenance) AS s_active_weeks,
      coalesce(s_issue_response, k_maintenance) AS s_issue_response,
      coalesce(s_stable_share, k_maturity) AS s_stable_share,
      coalesce(s_contributors, k_community) AS s_contributors,
      coalesce(s_merged_prs, k_community) AS s_merged_prs
    )
  FROM known_shares
),
points AS (
  SELECT
    *,
    -- an archived repository is declared unmaintained by its owners: no maintenance points at all
    CASE WHEN is_archived THEN 0 ELSE CAST(round(s_commits * getvariable('commits_90d_points')) AS INTEGER) END
      AS m_commits,
    CASE WHEN is_archived THEN 0 ELSE CAST(round(s_active_weeks * getvariable('active_weeks_points')) AS INTEGER) END
      AS m_active_weeks,
    CASE WHEN is_archived THEN 0 ELSE CAST(round(s_last_commit * getvariable('last_commit_points')) AS INTEGER) END
      AS m_last_commit,
    CASE WHEN is_archived THEN 0 ELSE CAST(round(s_issue_response * getvariable('issue_response_points')) AS INTEGER) END
      AS m_issue_response,
    CASE WHEN is_archived THEN 0 ELSE CAST(round(s_release * getvariable('release_recency_points')) AS INTEGER) END
      AS m_release,
    CAST(round(s_stars * getvariable('stars_points')) AS INTEGER) AS a_stars,
    CAST(round(s_forks * getvariable('forks_points')) AS INTEGER) AS a_forks,
    CAST(round(s_downloads * getvariable('downloads_points')) AS INTEGER) AS a_downloads,
    CAST(round(s_dependents * getvariable('dependents_points')) AS INTEGER) AS a_dependents,
    CAST(round(s_likes * getvariable('likes_points')) AS INTEGER) AS a_likes,
    CAST(round(s_age * getvariable('age_points')) AS INTEGER) AS t_age,
    CAST(round(s_releases * getvariable('releases_points')) AS INTEGER) AS t_releases,
    CAST(s_stable_version * getvariable('stable_version_points') AS INTEGER) AS t_stable_version,
    CAST(round(s_stable_share * getvariable('stable_share_points')) AS INTEGER) AS t_stable_share,
    CAST(s_license * getvariable('license_points') AS INTEGER) AS t_license,
    CAST(round(s_docs * getvariable('docs_points')) AS INTEGER) AS t_docs,
    CAST(round(s_contributors * getvariable('contributors_points')) AS INTEGER) AS c_contributors,
    CAST(round(s_merged_prs * getvariable('merged_prs_points')) AS INTEGER) AS c_merged_prs,
    CAST(round(s_issues * getvariable('issues_points')) AS INTEGER) AS c_issues,
    CAST(round(s_watchers * getvariable('watchers_points')) AS INTEGER) AS c_watchers
  FROM known
),
floored AS (
  SELECT
    *,
    -- a finished project's shortfall below the floor, listed as an input of its own so the points still add up
    CASE WHEN is_finished THEN CAST(greatest(0, getvariable('finished_maintenance_floor')
      - (m_commits + m_active_weeks + m_last_commit + m_issue_response + m_release)) AS INTEGER) ELSE 0 END
      AS m_finished_floor
  FROM points
)
SELECT
  * EXCLUDE (s_commits, s_active_weeks, s_last_commit, s_issue_response, s_release, s_stars, s_forks, s_downloads,
    s_dependents, s_likes, s_age, s_releases, s_stable_version, s_stable_share, s_license, s_docs, s_contributors,
    s_merged_prs, s_issues, s_watchers),
  m_commits + m_active_weeks + m_last_commit + m_issue_response + m_release + m_finished_floor AS maintenance_score,
  a_stars + a_forks + a_downloads + a_dependents + a_likes AS adoption_score,
  t_age + t_releases + t_stable_version + t_stable_share + t_license + t_docs AS maturity_score,
  c_contributors + c_merged_prs + c_issues + c_watchers AS community_score
FROM floored;
