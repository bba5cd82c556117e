-- feat_repos: the latest known facts of every tracked repository as of the run date, one row each: GitHub's
-- row, its REST activity, its packages on every registry (feat_packages), posts and papers. A repository missing
-- today keeps its last snapshot (carried forward) and is flagged stale; packages carry their own flag.

-- Docker Hub counts pulls since the image was registered: spread over its months to read as a monthly figure
-- (`projintel rate` reads an all-time count too, so it uses the same macro: pipeline/sql/rate/feat_repos.sql)
CREATE OR REPLACE TEMP MACRO docker_pulls_per_month(pulls, registered) AS
  pulls / greatest(getvariable('docker_pulls_min_months'),
    coalesce(date_diff('day', registered, getvariable('run_date')) / 30.0, getvariable('docker_pulls_unknown_months')));
CREATE OR REPLACE TABLE feat_repos AS
WITH latest_night AS (
  -- a tracked repository is seen at least every tracked_for_days nights, so older rows never win
  SELECT node_id, max(run_date) AS run_date
  FROM raw_github_repos
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('tracked_for_days')
  GROUP BY node_id
),
latest AS (
  -- the night found first, then its row: cheaper than numbering every row of the window
  SELECT r.*
  FROM raw_github_repos r
  JOIN latest_night n USING (node_id, run_date)
  WHERE r.run_date <= getvariable('run_date') AND r.run_date > getvariable('run_date') - getvariable('tracked_for_days')
),
activity AS (
  SELECT node_id, commits_52w, commit_weeks, issue_response_median_hours, issues_sampled, activity_as_of
  FROM raw_github_activity
  -- every full refresh writes a row (carried forward past the REST budget), and the coldest tier is weekly
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('tracked_for_days')
    AND (commits_52w IS NOT NULL OR issue_response_median_hours IS NOT NULL)
  QUALIFY row_number() OVER (PARTITION BY node_id ORDER BY activity_as_of DESC, run_date DESC) = 1
),
contributor_counts AS (
  -- the latest count, from a full activity row or the weekly contributor rotation (rows with the count only,
  -- which must not hide the commit weeks of the last full row above)
  SELECT node_id, arg_max(contributors, activity_as_of) AS contributors
  FROM raw_github_activity
  WHERE run_date <= getvariable('run_date') AND run_date > getvariable('run_date') - getvariable('tracked_for_days')
    AND contributors IS NOT NULL
  GROUP BY node_id
),
primary_package AS (
  -- a repository's main package on each registry: the most downloaded (pulled), then the name closest to its own
  SELECT *
  FROM feat_packages
  QUALIFY row_number() OVER (
    PARTITION BY repo_full_name, registry
    ORDER BY downloads_monthly DESC, coalesce(pulls_total, 0) DESC, length(package), package
  ) = 1
),
by_repo AS (
  SELECT
    repo_full_name,
    any_value(package) FILTER (WHERE registry = 'pypi') AS pypi_package,
    any_value(version) FILTER (WHERE registry = 'pypi') AS pypi_version,
    any_value(stable_releases) FILTER (WHERE registry = 'pypi') AS pypi_stable_releases,
    any_value(prereleases) FILTER (WHERE registry = 'pypi') AS pypi_prereleases,
    any_value(latest_release_at) FILTER (WHERE registry = 'pypi') AS pypi_latest_release_at,
    any_value(package) FILTER (WHERE registry = 'npm') AS npm_package,
    any_value(version) FILTER (WHERE registry = 'npm') AS npm_version,
    any_value(versions_total) FILTER (WHERE registry = 'npm') AS npm_versions_total,
    any_value(latest_release_at) FILTER (WHERE registry = 'npm') AS npm_latest_release_at,
    any_value(package) FILTER (WHERE registry = 'docker') AS docker_image,
    list_distinct(flatten(list(dependencies) FILTER (WHERE registry IN ('pypi', 'npm')))) AS dependencies
  FROM primary_package
  GROUP BY repo_full_name
),
totals AS (
  -- adoption sums every package of the repository, registry by registry
  SELECT
    repo_full_name,
    sum(downloads_monthly) FILTER (WHERE registry = 'pypi') AS pypi_downloads_monthly,
    sum(downloads_monthly) FILTER (WHERE registry = 'npm') AS npm_downloads_monthly,
    sum(downloads_monthly) FILTER (WHERE registry = 'huggingface') AS hf_downloads_monthly,
    sum(pulls_total) FILTER (WHERE registry = 'docker') AS docker_pulls,
    sum(docker_pulls_per_month(pulls_total, first_release_at)) FILTER (WHERE registry = 'docker')
      AS docker_pulls_monthly,
    -- likes of its Hugging Face models and stars of its Docker Hub images (feat_packages.likes holds both)
    sum(likes) FILTER (WHERE registry IN ('huggingface', 'docker')) AS registry_likes,
    count(*) FILTER (WHERE registry = 'huggingface') AS hf_models,
    max(dependents) AS dependents,
    count(*) AS packages,
    count(*) FILTER (WHERE is_stale) AS packages_stale
  FROM feat_packages
  GROUP BY repo_full_name
),
posts AS (
  SELECT repo_full_name, count(*) AS hn_posts_90d, sum(points) AS hn_points_90d
  FROM (
    SELECT *
    FROM raw_hn_posts
    WHERE run_date <= getvariable('run_date')
    QUALIFY row_number() OVER (PARTITION BY object_id ORDER BY run_date DESC) = 1
  )
  WHERE created_at >= getvariable('run_date') - getvariable('attention_window_days')
  GROUP BY repo_full_name
),
papers AS (
  SELECT repo, count(DISTINCT arxiv_id) AS papers
  FROM raw_arxiv_papers, unnest(repo_full_names) AS u(repo)
  WHERE run_date <= getvariable('run_date')
  GROUP BY repo
)
SELECT
  l.*,
  l.run_date < getvariable('run_date') AS is_stale,
  lower(l.owner) || '--' || lower(l.name) AS slug,
  c.contributors,
  a.commits_52w,
  a.commit_weeks,
  a.issue_response_median_hours,
  a.issues_sampled,
  a.activity_as_of,
  b.pypi_package,
  b.pypi_version,
  coalesce(b.pypi_stable_releases, 0) AS pypi_stable_releases,
  coalesce(b.pypi_prereleases, 0) AS pypi_prereleases,
  b.pypi_latest_release_at,
  b.npm_package,
  b.npm_version,
  coalesce(b.npm_versions_total, 0) AS npm_versions_total,
  b.npm_latest_release_at,
  b.docker_image,
  coalesce(b.dependencies, []::VARCHAR[]) AS dependencies,
  coalesce(t.pypi_downloads_monthly, 0)::BIGINT AS pypi_downloads_monthly,
  coalesce(t.npm_downloads_monthly, 0)::BIGINT AS npm_downloads_monthly,
  coalesce(t.hf_downloads_monthly, 0)::BIGINT AS hf_downloads_monthly,
  coalesce(t.docker_pulls, 0)::BIGINT AS docker_pulls,
  round(coalesce(t.docker_pulls_monthly, 0))::BIGINT AS docker_pulls_monthly,
  coalesce(t.registry_likes, 0)::BIGINT AS registry_likes,
  coalesce(t.hf_models, 0)::INTEGER AS hf_models,
  -- registries' monthly downloads added up (Docker Hub only counts pulls since registration: see docker_pulls)
  (coalesce(t.pypi_downloads_monthly, 0) + coalesce(t.npm_downloads_monthly, 0) + coalesce(t.hf_downloads_monthly, 0))
    ::BIGINT AS downloads_monthly,
  coalesce(t.dependents, 0)::INTEGER AS dependents,
  -- GitHub's dependency-graph count of dependents (every public repository and package depending on it), a measure
  -- of its own (score: dependents_graph_cap): no nightly source reads it; a `projintel rate` list may give it
  NULL::INTEGER AS graph_dependents,
  -- monthly estimates of all-time download totals no nightly source reads (conda, GitHub release assets): a
  -- `projintel rate` input may give them (pipeline/sql/rate/feat_repos.sql), so the score reads them from here
  NULL::BIGINT AS conda_downloads_monthly,
  NULL::BIGINT AS release_downloads_monthly,
  -- documentation signals (homepage, topics) the source does not state: GitHub states both (NULL: none unknown)
  NULL::INTEGER AS doc_signals_unknown,
  coalesce(t.packages, 0)::INTEGER AS packages,
  coalesce(t.packages_stale, 0)::INTEGER AS packages_stale,
  coalesce(h.hn_posts_90d, 0)::INTEGER AS hn_posts_90d,
  coalesce(h.hn_points_90d, 0)::BIGINT AS hn_points_90d,
  coalesce(p.papers, 0)::INTEGER AS papers
FROM latest l
LEFT JOIN activity a USING (node_id)
LEFT JOIN contributor_counts c USING (node_id)
LEFT JOIN by_repo b ON b.repo_full_name = lower(l.full_name)
LEFT JOIN totals t ON t.repo_full_name = lower(l.full_name)
LEFT JOIN posts h ON h.repo_full_name = lower(l.full_name)
LEFT JOIN papers p ON p.repo = lower(l.full_name);
