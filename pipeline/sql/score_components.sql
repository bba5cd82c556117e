-- score_components: per repository every input of the four components and the whole points each part earned,
-- then the components (integers 0–25). Each part is at most its *_points maximum and those add up to 25, so
-- no component can pass 25. An unknown input earns the share all the known inputs earned together (a maintenance
-- one no more than the last commit's recency), so no figure is counted twice. Maturity and community
-- history fade with the time since the project last showed life. Constants: pipeline/methodology/score.ts; rules:
-- docs/methodology.md. Every row is scored as of the run date; with run_date unset (NULL), each row as of its own
-- night (feat_repos.run_date): a list's replay scores every night of its history in this one run
-- (pipeline/sql/lists/list_scored.sql), as a row reads nothing but its own repository.

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
      WHEN f.commits_365d IS NOT NULL THEN least(greatest(f.commits_365d, 0), 52)
      -- no commit (nor push) in the last 52 weeks: none of them had one
      WHEN date_diff('day', coalesce(f.last_commit_at, f.pushed_at), f.scored_on) > 364 THEN 0
    END AS active_weeks,
    f.commit_weeks IS NOT NULL AS active_weeks_known,
    date_diff('day', coalesce(f.last_commit_at, f.pushed_at), f.scored_on) AS days_since_commit,
    f.last_commit_at IS NULL AND f.pushed_at IS NOT NULL AS days_since_commit_from_push,
    CASE WHEN f.issues_sampled >= getvariable('issue_response_min_sampled') AND isfinite(f.issue_response_median_hours)
      THEN round(greatest(f.issue_response_median_hours, 0), 1) END AS issue_response_hours,
    greatest(coalesce(f.open_issues, 0), 0) AS open_issues,
    -- DuckDB's greatest skips NULLs: the newest release any source knows of
    date_diff('day', greatest(f.latest_release_at, f.pypi_latest_release_at, f.npm_latest_release_at),
      f.scored_on) AS days_since_release,
    -- adoption: every signal of use, a project without a package included
    greatest(coalesce(f.stars, 0), 0) AS stars,
    greatest(coalesce(f.forks, 0), 0) AS forks,
    -- monthly downloads of PyPI, npm and the Hub, Docker Hub pulls per month, and the monthly estimates of conda's
    -- and GitHub release assets' all-time downloads (feat_repos; a `projintel rate` input may have them)
    greatest(coalesce(f.downloads_monthly, 0), 0) + greatest(coalesce(f.docker_pulls_monthly, 0), 0)
      + greatest(coalesce(f.conda_downloads_monthly, 0), 0) + greatest(coalesce(f.release_downloads_monthly, 0), 0)
      AS downloads_and_pulls_monthly,
    coalesce(f.conda_downloads_monthly, 0) > 0 AS conda_estimated,
    coalesce(f.release_downloads_monthly, 0) > 0 AS release_downloads_estimated,
    -- a popular repository whose package is hardly downloaded: most likely the wrong package (a name taken by another)
    (f.pypi_package IS NOT NULL OR f.npm_package IS NOT NULL)
      AND coalesce(f.stars, 0) >= getvariable('package_mismatch_min_stars')
      AND coalesce(f.downloads_monthly, 0) < getvariable('package_mismatch_max_downloads') AS package_mismatch,
    -- two measures, each on its own scale: tracked repositories depending on it (the nightly's count) and GitHub's
    -- dependency graph (a list's count; NULL in the nightly)
    greatest(coalesce(f.dependents, 0), 0) AS dependents,
    CASE WHEN f.graph_dependents IS NOT NULL THEN greatest(f.graph_dependents, 0) END AS graph_dependents,
    -- GitHub's nightly always knows them (0 without a model or image); a `projintel rate` input may not: unknown
    CASE WHEN f.registry_likes IS NOT NULL THEN greatest(f.registry_likes, 0) END AS registry_likes,
    -- maturity
    date_diff('day', f.created_at, f.scored_on) AS age_days,
    greatest(coalesce(f.releases_total, 0), coalesce(f.pypi_stable_releases, 0), coalesce(f.npm_versions_total, 0), 0)
      AS releases,
    -- the stated versions (read in `versions` below)
    f.pypi_version AS v_pypi,
    f.npm_version AS v_npm,
    f.latest_release_tag AS v_tag,
    -- the share of PyPI releases that are stable; NULL without a PyPI release (only PyPI tells pre-releases apart)
    CASE WHEN f.pypi_stable_releases > 0 OR f.pypi_prereleases > 0
      THEN round(greatest(f.pypi_stable_releases, 0)
        / (greatest(f.pypi_stable_releases, 0)::DOUBLE + greatest(f.pypi_prereleases, 0)), 3) END AS stable_share,
    f.license IS NOT NULL AND f.license <> '' AS has_license,
    -- days since the project last showed life: its last commit (push) or release, the newer (least skips NULLs)
    least(date_diff('day', coalesce(f.last_commit_at, f.pushed_at), f.scored_on),
      date_diff('day', greatest(f.latest_release_at, f.pypi_latest_release_at, f.npm_latest_release_at),
        f.scored_on)) AS days_since_alive,
    (CASE WHEN coalesce(f.description, '') <> '' THEN 1 ELSE 0 END)
      + (CASE WHEN coalesce(f.homepage, '') <> '' THEN 1 ELSE 0 END)
      + (CASE WHEN len(coalesce(f.topics, [])) > 0 THEN 1 ELSE 0 END) AS docs_signals,
    -- of homepage and topics, how many the source does not state (a `projintel rate` input may not)
    least(greatest(coalesce(f.doc_signals_unknown, 0), 0), 2) AS docs_unknown,
    -- community
    -- NULL stays NULL (unknown: scored from the known inputs); DuckDB's greatest would turn it into 0
    CASE WHEN f.contributors IS NOT NULL THEN greatest(f.contributors, 0) END AS contributors,
    -- GitHub always reports it; a `projintel rate` input may not know it (unknown, not zero)
    CASE WHEN f.merged_prs IS NOT NULL THEN greatest(f.merged_prs, 0) END AS merged_prs,
    greatest(coalesce(f.open_issues, 0), 0)::BIGINT + greatest(coalesce(f.closed_issues, 0), 0) AS issues,
    -- the share of issues filed that are closed; unknown without any
    CASE WHEN greatest(coalesce(f.open_issues, 0), 0)::BIGINT + greatest(coalesce(f.closed_issues, 0), 0) > 0
      THEN greatest(coalesce(f.closed_issues, 0), 0)
        / (greatest(coalesce(f.open_issues, 0), 0)::DOUBLE + greatest(coalesce(f.closed_issues, 0), 0)) END
      AS closed_issue_share,
    greatest(coalesce(f.watchers, 0), 0) AS watchers
  FROM (SELECT *, coalesce(getvariable('run_date'), run_date) AS scored_on FROM feat_repos) f
),
-- The version each of the PyPI version, npm version and release tag states, wherever it stands in it:
-- 'client/v2.5.4' -> 2.5.4, '4.52.4-Kyutai-STT-preiew' -> 4.52.4, 'networkx-3.5' -> 3.5 (a dotted number first,
-- else a lone one: '84'); a pre-release when a marker follows it at once ('2.0.0rc1', '3.0-beta', '1.0.0.dev2'),
-- not when a build's own name does ('-Kyutai-STT-preiew').
version_numbers AS (
  SELECT
    *,
    coalesce(nullif(regexp_extract(v_pypi, '[0-9]+(\.[0-9]+)+'), ''), nullif(regexp_extract(v_pypi, '[0-9]+'), ''))
      AS n_pypi,
    coalesce(nullif(regexp_extract(v_npm, '[0-9]+(\.[0-9]+)+'), ''), nullif(regexp_extract(v_npm, '[0-9]+'), ''))
      AS n_npm,
    coalesce(nullif(regexp_extract(v_tag, '[0-9]+(\.[0-9]+)+'), ''), nullif(regexp_extract(v_tag, '[0-9]+'), ''))
      AS n_tag
  FROM inputs
),
versions AS (
  SELECT
    * EXCLUDE (v_pypi, v_npm, v_tag, n_pypi, n_npm, n_tag, p_pypi, p_npm, p_tag),
    -- a stated version at 1.0 or later that is not a pre-release: "v2.1.0", "client/v2.5.4" and "1.0" qualify; so
    -- does a pre-release of a version above 1.0 after stable_practice_min_releases releases ("v4.0.0-rc.1" after 158:
    -- the 3.x before it are stable), never one of 1.0 itself (the first stable release is not out yet)
    coalesce(TRY_CAST(split_part(n_pypi, '.', 1) AS DOUBLE) >= 1 AND (NOT p_pypi OR (NOT regexp_full_match(n_pypi,
      '1(\.0+)*') AND releases >= getvariable('stable_practice_min_releases'))), false)
      OR coalesce(TRY_CAST(split_part(n_npm, '.', 1) AS DOUBLE) >= 1 AND (NOT p_npm OR (NOT regexp_full_match(n_npm,
        '1(\.0+)*') AND releases >= getvariable('stable_practice_min_releases'))), false)
      OR coalesce(TRY_CAST(split_part(n_tag, '.', 1) AS DOUBLE) >= 1 AND (NOT p_tag OR (NOT regexp_full_match(n_tag,
        '1(\.0+)*') AND releases >= getvariable('stable_practice_min_releases'))), false) AS stable_v1,
    -- some version is stated and none of them is a pre-release
    (n_pypi IS NOT NULL OR n_npm IS NOT NULL OR n_tag IS NOT NULL)
      AND NOT coalesce(p_pypi, false) AND NOT coalesce(p_npm, false) AND NOT coalesce(p_tag, false)
      AS latest_not_prerelease
  FROM (
    SELECT
      *,
      regexp_matches(lower(substr(v_pypi, strpos(v_pypi, n_pypi) + length(n_pypi))),
        '^[-_.+]?(a|b|c|rc|alpha|beta|pre|preview|dev)[0-9]*([^a-z]|$)') AS p_pypi,
      regexp_matches(lower(substr(v_npm, strpos(v_npm, n_npm) + length(n_npm))),
        '^[-_.+]?(a|b|c|rc|alpha|beta|pre|preview|dev)[0-9]*([^a-z]|$)') AS p_npm,
      regexp_matches(lower(substr(v_tag, strpos(v_tag, n_tag) + length(n_tag))),
        '^[-_.+]?(a|b|c|rc|alpha|beta|pre|preview|dev)[0-9]*([^a-z]|$)') AS p_tag
    FROM version_numbers
  )
),
-- Stable in practice, from the inputs and versions: read by the shares below.
practice AS (
  SELECT
    *,
    -- stable: a 1.0+ version, or a 0.x project released like one — old enough, many releases at a steady pace,
    -- the latest not a pre-release, and really adopted (49% of a real list is on 0.x: statsmodels, scikit-image)
    stable_v1 OR (latest_not_prerelease
      AND coalesce(age_days >= getvariable('stable_practice_min_age_days'), false)
      AND releases >= getvariable('stable_practice_min_releases')
      AND releases * 365.0 / greatest(age_days, 1) >= getvariable('stable_practice_releases_per_year')
      AND downloads_and_pulls_monthly >= getvariable('adopted_min_downloads_monthly')) AS stable_release
  FROM versions
),
life AS (
  SELECT
    *,
    -- the share of its history (maturity, community) a project keeps: all of it while it shows life within
    -- alive_full_days or is finished, falling linearly to dead_history_share at alive_zero_days; unknown dates
    -- keep it all
    CASE WHEN is_finished OR days_since_alive IS NULL OR days_since_alive <= getvariable('alive_full_days') THEN 1.0
      ELSE greatest(getvariable('dead_history_share'), 1 - (1 - getvariable('dead_history_share'))
        * (days_since_alive - getvariable('alive_full_days'))
        / (getvariable('alive_zero_days') - getvariable('alive_full_days'))) END AS alive_share
  FROM (
    SELECT
      *,
      -- finished, not abandoned: old, stable, really adopted (downloads: dependents alone are not enough), issues still
      -- answered (a known median response, else the share of issues closed), a release and a commit within the window
      NOT is_archived
        AND coalesce(age_days >= getvariable('finished_min_age_days'), false)
        AND stable_release
        AND downloads_and_pulls_monthly >= getvariable('adopted_min_downloads_monthly')
        AND coalesce(days_since_release <= getvariable('finished_release_window_days'), false)
        AND coalesce(issue_response_hours <= getvariable('finished_max_response_hours'),
          closed_issue_share >= getvariable('finished_min_closed_share'), false)
        AND coalesce(days_since_commit <= getvariable('finished_commit_window_days'), false) AS is_finished
    FROM practice
  )
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
    -- each measure on its own scale, the better of the two counts: tracked dependents on the curved log scale of every
    -- adoption count; dependency-graph counts on a plain one (they span six orders of magnitude: the curve would
    -- flatten the small ones to 0). DuckDB's least and greatest skip NULLs: an unknown graph count is kept NULL
    -- explicitly, then skipped
    greatest(power(least(ln(1 + dependents::DOUBLE) / ln(1 + getvariable('dependents_tracked_cap')), 1),
        getvariable('adoption_curve')),
      CASE WHEN graph_dependents IS NOT NULL
        THEN least(ln(1 + graph_dependents::DOUBLE) / ln(1 + getvariable('dependents_graph_cap')), 1) END) AS s_dependents,
    CASE WHEN registry_likes IS NOT NULL THEN power(least(ln(1 + registry_likes::DOUBLE) / ln(1 + getvariable('likes_cap')), 1),
      getvariable('adoption_curve')) END AS s_likes,
    -- maturity's history (age, releases, stability) fades with alive_share; licence and documentation stay
    alive_share * CASE WHEN age_days IS NULL THEN 0 ELSE greatest(0, least(1, age_days / getvariable('age_full_days'))) END
      AS s_age,
    alive_share * least(ln(1 + releases::DOUBLE) / ln(1 + getvariable('releases_cap')), 1) AS s_releases,
    alive_share * CASE WHEN stable_release THEN 1 ELSE 0 END AS s_stable_version,
    -- unknown (NULL) with releases but no PyPI history; none released is nothing stable: 0
    alive_share * CASE WHEN stable_share IS NOT NULL THEN stable_share WHEN releases = 0 THEN 0 END AS s_stable_share,
    CASE WHEN has_license THEN 1 ELSE 0 END AS s_license,
    docs_signals / 3 AS s_docs,
    -- community: the people a project has gathered, faded with alive_share (those of a dead project have left);
    -- DuckDB's least skips NULLs, so an unknown count is kept NULL explicitly
    CASE WHEN contributors IS NOT NULL THEN alive_share * power(least(ln(1 + contributors::DOUBLE)
      / ln(1 + getvariable('contributors_cap')), 1), getvariable('community_curve')) END AS s_contributors,
    CASE WHEN merged_prs IS NOT NULL THEN alive_share * power(least(ln(1 + merged_prs::DOUBLE)
      / ln(1 + getvariable('merged_prs_cap')), 1), getvariable('community_curve')) END AS s_merged_prs,
    alive_share * power(least(ln(1 + issues::DOUBLE) / ln(1 + getvariable('issues_cap')), 1), getvariable('community_curve'))
      AS s_issues,
    alive_share * power(least(ln(1 + watchers::DOUBLE) / ln(1 + getvariable('watchers_cap')), 1), getvariable('community_curve'))
      AS s_watchers
  FROM life
),
-- Each component's known inputs: the points-weighted sum of their shares and of their maxima. Maintenance may lack
-- steady work and responsiveness, adoption registry likes, maturity the stable share and documentation signals,
-- community contributors and merged pull requests; the other inputs are always known.
known_sums AS (
  SELECT
    *,
    s_commits * getvariable('commits_90d_points') + coalesce(s_active_weeks, 0) * getvariable('active_weeks_points')
      + s_last_commit * getvariable('last_commit_points') + coalesce(s_issue_response, 0) * getvariable('issue_response_points')
      + s_release * getvariable('release_recency_points') AS k_maintenance,
    getvariable('commits_90d_points') + getvariable('last_commit_points') + getvariable('release_recency_points')
      + CASE WHEN s_active_weeks IS NULL THEN 0 ELSE getvariable('active_weeks_points') END
      + CASE WHEN s_issue_response IS NULL THEN 0 ELSE getvariable('issue_response_points') END AS n_maintenance,
    s_stars * getvariable('stars_points') + s_forks * getvariable('forks_points')
      + s_downloads * getvariable('downloads_points') + s_dependents * getvariable('dependents_points')
      + coalesce(s_likes, 0) * getvariable('likes_points') AS k_adoption,
    getvariable('stars_points') + getvariable('forks_points') + getvariable('downloads_points')
      + getvariable('dependents_points')
      + CASE WHEN s_likes IS NULL THEN 0 ELSE getvariable('likes_points') END AS n_adoption,
    s_age * getvariable('age_points') + s_releases * getvariable('releases_points')
      + s_stable_version * getvariable('stable_version_points') + coalesce(s_stable_share, 0) * getvariable('stable_share_points')
      + s_license * getvariable('license_points') + s_docs * getvariable('docs_points') AS k_maturity,
    getvariable('age_points') + getvariable('releases_points') + getvariable('stable_version_points')
      + getvariable('license_points') + getvariable('docs_points') * (3 - docs_unknown) / 3
      + CASE WHEN s_stable_share IS NULL THEN 0 ELSE getvariable('stable_share_points') END AS n_maturity,
    coalesce(s_contributors, 0) * getvariable('contributors_points')
      + coalesce(s_merged_prs, 0) * getvariable('merged_prs_points')
      + s_issues * getvariable('issues_points') + s_watchers * getvariable('watchers_points') AS k_community,
    getvariable('issues_points') + getvariable('watchers_points')
      + CASE WHEN s_contributors IS NULL THEN 0 ELSE getvariable('contributors_points') END
      + CASE WHEN s_merged_prs IS NULL THEN 0 ELSE getvariable('merged_prs_points') END AS n_community
  FROM shares
),
-- An unknown input earns the points-weighted mean share of every known input of the score, all four components:
-- the project is judged from everything known of it, so no single figure is counted again (filled from its own
-- component alone, a list's commit count would stand in for three of maintenance's five inputs). A maintenance input
-- is filled no higher than the last commit's recency: a project that stopped committing is not presumed to answer
-- issues or work steadily.
known AS (
  SELECT
    * EXCLUDE (k_maintenance, n_maintenance, k_adoption, n_adoption, k_maturity, n_maturity, k_community, n_community,
      k_all)
    REPLACE (
      coalesce(s_active_weeks, least(s_last_commit, k_all)) AS s_active_weeks,
      coalesce(s_issue_response, least(s_last_commit, k_all)) AS s_issue_response,
      coalesce(s_likes, k_all) AS s_likes,
      coalesce(s_stable_share, k_all) AS s_stable_share,
      coalesce(s_contributors, k_all) AS s_contributors,
      coalesce(s_merged_prs, k_all) AS s_merged_prs,
      -- each unstated documentation signal earns the fallback share of a third
      s_docs + docs_unknown / 3 * k_all AS s_docs
    )
  FROM (
    SELECT
      *,
      (k_maintenance + k_adoption + k_maturity + k_community)
        / (n_maintenance + n_adoption + n_maturity + n_community) AS k_all
    FROM known_sums
  )
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
    CAST(round(s_stable_version * getvariable('stable_version_points')) AS INTEGER) AS t_stable_version,
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
