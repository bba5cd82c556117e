-- feat_repos for `projintel rate`: the repositories of a rate input (JSON in rate_json.doc, one object per row, the
-- fields of pipeline/lists/rate-input.ts) added to the nightly's own feat_repos (built empty first, so every column has
-- the nightly's type). From here the nightly's classification and score files run unchanged. A figure the input
-- leaves out stays NULL: the score reads it as the nightly reads an unknown.
INSERT INTO feat_repos BY NAME
WITH input AS (
  SELECT unnest(from_json(doc, '[{
    "line": "INTEGER", "full_name": "VARCHAR", "description": "VARCHAR", "homepage": "VARCHAR",
    "topics": "VARCHAR[]", "language": "VARCHAR", "license": "VARCHAR", "archived": "BOOLEAN",
    "created_at": "TIMESTAMP", "pushed_at": "TIMESTAMP", "last_commit_at": "TIMESTAMP",
    "stars": "INTEGER", "forks": "INTEGER", "watchers": "INTEGER", "open_issues": "INTEGER",
    "closed_issues": "INTEGER", "merged_prs": "INTEGER", "contributors": "INTEGER", "commits_90d": "INTEGER",
    "commits_365d": "INTEGER", "releases_total": "INTEGER", "latest_release_tag": "VARCHAR",
    "latest_release_at": "TIMESTAMP", "issue_response_median_hours": "DOUBLE", "issues_sampled": "INTEGER",
    "pypi_package": "VARCHAR", "pypi_version": "VARCHAR", "pypi_stable_releases": "INTEGER",
    "pypi_prereleases": "INTEGER", "pypi_latest_release_at": "TIMESTAMP", "pypi_downloads_monthly": "BIGINT",
    "npm_package": "VARCHAR", "npm_version": "VARCHAR", "npm_versions_total": "INTEGER",
    "npm_latest_release_at": "TIMESTAMP", "npm_downloads_monthly": "BIGINT", "hf_downloads_monthly": "BIGINT",
    "all_downloads_monthly": "BIGINT", "conda_downloads": "BIGINT", "release_downloads": "BIGINT",
    "docker_pulls": "BIGINT", "registry_likes": "BIGINT", "dependents": "INTEGER", "dependencies": "VARCHAR[]"
  }]'), recursive := true)
  FROM rate_json
)
SELECT
  getvariable('run_date') AS run_date,
  -- one node per input line, so a name listed twice is rated twice
  'line:' || line AS node_id,
  full_name,
  split_part(full_name, '/', 1) AS owner,
  split_part(full_name, '/', 2) AS name,
  lower(split_part(full_name, '/', 1)) || '--' || lower(split_part(full_name, '/', 2)) AS slug,
  description, homepage, coalesce(topics, []) AS topics, language, license,
  -- a homepage or topics the input does not state is unknown, not absent (a best-of list states neither)
  (CASE WHEN homepage IS NULL THEN 1 ELSE 0 END) + (CASE WHEN topics IS NULL THEN 1 ELSE 0 END) AS doc_signals_unknown,
  stars, forks, watchers, open_issues, closed_issues, merged_prs,
  created_at, pushed_at, last_commit_at, coalesce(archived, false) AS is_archived,
  commits_90d, commits_365d, releases_total, latest_release_tag, latest_release_at,
  contributors, issue_response_median_hours, issues_sampled,
  pypi_package, pypi_version, coalesce(pypi_stable_releases, 0) AS pypi_stable_releases,
  coalesce(pypi_prereleases, 0) AS pypi_prereleases, pypi_latest_release_at,
  npm_package, npm_version, coalesce(npm_versions_total, 0) AS npm_versions_total, npm_latest_release_at,
  list_transform(coalesce(dependencies, []), d -> lower(d)) AS dependencies,
  pypi_downloads_monthly, npm_downloads_monthly, hf_downloads_monthly, docker_pulls,
  -- an all-time count with no registration date: the nightly's own spreading (feat_repos.sql)
  round(docker_pulls_per_month(docker_pulls, NULL::TIMESTAMP))::BIGINT AS docker_pulls_monthly,
  registry_likes,
  -- the registries' figures; without any, the all-registry total (best-of's monthly_downloads); else unknown
  CASE WHEN coalesce(pypi_downloads_monthly, npm_downloads_monthly, hf_downloads_monthly) IS NOT NULL
    THEN coalesce(pypi_downloads_monthly, 0) + coalesce(npm_downloads_monthly, 0) + coalesce(hf_downloads_monthly, 0)
    ELSE all_downloads_monthly
  END AS downloads_monthly,
  -- all-time totals as a monthly estimate: spread over the months since the repository was created (its packages
  -- and assets are no older), at least docker_pulls_min_months; the explanation lists them under `estimated`
  round(docker_pulls_per_month(conda_downloads, created_at))::BIGINT AS conda_downloads_monthly,
  round(docker_pulls_per_month(release_downloads, created_at))::BIGINT AS release_downloads_monthly,
  -- a list's dependents are GitHub's dependency graph (best-of's dependent_project_count), not the nightly's tracked
  -- repositories: a measure of its own, scored on its own scale (score_components.sql)
  NULL::INTEGER AS dependents,
  dependents AS graph_dependents,
  false AS is_stale
FROM input
ORDER BY line;
