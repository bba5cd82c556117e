-- One night of the scoring benchmark's synthetic warehouse (world in bench/score-world.sql), appended as a
-- nightly load appends its night: a GitHub row for every tracked repository; REST activity and registry rows on
-- each repository's weekly refresh night; posts and papers for a few.
CREATE OR REPLACE TEMP TABLE night AS SELECT ${n}::INTEGER AS n, DATE ${run_date} AS run_date;

INSERT INTO raw_github_repos BY NAME
SELECT
  s.run_date,
  r.node_id,
  r.owner || '/' || r.name AS full_name,
  r.owner,
  r.name,
  'A ' || dm.slug || ' project: ' || dm.topics[1 + (r.i % len(dm.topics))] AS description,
  CASE WHEN r.i % 3 = 0 THEN 'https://' || r.name || '.dev' END AS homepage,
  CASE r.i % 4 WHEN 0 THEN 'Python' WHEN 1 THEN 'TypeScript' WHEN 2 THEN 'Rust' ELSE 'C++' END AS language,
  CASE WHEN r.i % 5 <> 0 THEN 'MIT' END AS license,
  [dm.topics[1 + (r.i % len(dm.topics))], dm.topics[1 + ((r.i // 7) % len(dm.topics))]] AS topics,
  CAST(r.pop * (0.6 + 0.4 * pow((s.n + 1) / ${nights}, 1 + r.grow)) AS INTEGER) AS stars,
  CAST(r.pop * 0.12 * (0.6 + 0.4 * (s.n + 1) / ${nights}) AS INTEGER) AS forks,
  CAST(r.pop * 0.02 AS INTEGER) AS watchers,
  r.activity % 40 AS open_issues,
  r.activity * 3 AS closed_issues,
  r.activity % 7 AS open_prs,
  r.activity * 2 AS merged_prs,
  r.created::TIMESTAMP AS created_at,
  s.run_date - (r.activity % 30) AS pushed_at,
  s.run_date::TIMESTAMP AS updated_at,
  r.i % 97 = 0 AS is_archived,
  false AS is_fork,
  'main' AS default_branch,
  (s.run_date - (r.i % 400))::TIMESTAMP AS last_commit_at,
  r.activity // 3 AS commits_30d,
  r.activity AS commits_90d,
  r.activity * 4 AS commits_365d,
  (r.activity // 10) AS releases_total,
  CASE WHEN r.activity >= 10 THEN 'v' || (r.activity // 50) || '.' || (r.activity % 10) || '.0' END AS latest_release_tag,
  CASE WHEN r.activity >= 10 THEN (s.run_date - (r.i % 200))::TIMESTAMP END AS latest_release_at,
  s.run_date::TIMESTAMP AS fetched_at,
  s.run_date - ((s.n + r.phase) % 7) AS details_as_of,
  CASE WHEN (s.n + r.phase) % 7 = 0 THEN 'full' ELSE 'light' END AS refresh_tier
FROM night s
CROSS JOIN bench_repos r
JOIN bench_domains dm ON dm.d = r.d;

INSERT INTO raw_github_activity BY NAME
SELECT
  s.run_date, r.node_id, r.owner || '/' || r.name AS full_name,
  1 + r.activity // 4 + s.n // 50 AS contributors,
  r.activity * 4 AS commits_52w,
  list_transform(range(52), w -> CAST((r.activity * 4 / 52.0) * (1 + ((w + r.i) % 3)) / 2 AS INTEGER)) AS commit_weeks,
  1.0 + (r.i % 96) AS issue_response_median_hours,
  (r.activity % 30) AS issues_sampled,
  s.run_date AS activity_as_of,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE (s.n + r.phase) % 7 = 0;

INSERT INTO raw_pypi_projects BY NAME
SELECT
  s.run_date, 'project-' || r.i AS package, lower(r.owner || '/' || r.name) AS repo_full_name,
  (r.activity // 50) || '.' || (r.activity % 10) || '.' || (s.n // 30) AS version, 'summary' AS summary, 'MIT' AS license,
  CASE WHEN r.i % 11 = 0 THEN ['project-' || (r.i - 11), 'numpy>=1.0'] ELSE ['numpy>=1.0'] END AS requires_dist,
  5 + r.activity // 5 AS releases_total, 4 + r.activity // 6 AS stable_releases,
  r.created::TIMESTAMP AS first_release_at, (s.run_date - (r.i % 120))::TIMESTAMP AS latest_release_at,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 7 = 1 AND (s.n + r.phase) % 7 = 0;

INSERT INTO raw_pypi_downloads BY NAME
SELECT run_date, package, CAST(hash(package, 'dl') % 100000 AS BIGINT) // 30 AS last_day,
  CAST(hash(package, 'dl') % 100000 AS BIGINT) // 4 AS last_week, CAST(hash(package, 'dl') % 100000 AS BIGINT) AS last_month,
  fetched_at
FROM raw_pypi_projects WHERE run_date = DATE ${run_date};

INSERT INTO raw_npm_packages BY NAME
SELECT
  s.run_date, 'project-' || r.i AS package, lower(r.owner || '/' || r.name) AS repo_full_name,
  lower(r.owner || '/' || r.name) AS linked_repo, '1.' || (s.n // 30) || '.0' AS version, 'js' AS description,
  3 + r.activity // 8 AS versions_total, r.created::TIMESTAMP AS created_at, s.run_date::TIMESTAMP AS modified_at,
  r.created::TIMESTAMP AS first_release_at, (s.run_date - (r.i % 90))::TIMESTAMP AS latest_release_at,
  (s.run_date - (r.i % 90))::TIMESTAMP AS version_published_at, ['react'] AS dependencies, false AS deprecated,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 11 = 2 AND (s.n + r.phase) % 7 = 0;

INSERT INTO raw_npm_downloads BY NAME
SELECT run_date, package, run_date - 30 AS start_date, run_date - 1 AS end_date,
  CAST(hash(package, 'npm') % 500000 AS BIGINT) AS downloads, fetched_at
FROM raw_npm_packages WHERE run_date = DATE ${run_date};

INSERT INTO raw_dockerhub_repos BY NAME
SELECT s.run_date, lower(r.owner || '/' || r.name) AS image, lower(r.owner || '/' || r.name) AS repo_full_name,
  'name' AS matched_by, NULL AS description, CAST(r.pop * 100 AS BIGINT) AS pull_count, 3 AS star_count,
  s.run_date::TIMESTAMP AS last_updated, r.created::TIMESTAMP AS date_registered, 'active' AS status,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 19 = 3 AND (s.n + r.phase) % 7 = 0;

INSERT INTO raw_hf_models BY NAME
SELECT s.run_date, r.owner || '/model-' || r.i AS model_id, lower(r.owner || '/' || r.name) AS repo_full_name,
  'card' AS matched_by, r.owner AS author, CAST(r.pop * 10 AS BIGINT) AS downloads, 5 AS likes, ['pytorch'] AS tags,
  'text-generation' AS pipeline_tag, 'transformers' AS library_name, 'mit' AS license, []::VARCHAR[] AS arxiv_ids,
  [lower(r.owner || '/' || r.name)] AS linked_repos, false AS gated, r.created::TIMESTAMP AS created_at,
  s.run_date::TIMESTAMP AS last_modified, s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 23 = 4 AND (s.n + r.phase) % 7 = 0;

INSERT INTO raw_hn_posts BY NAME
SELECT s.run_date, 'hn-' || r.i || '-' || (s.n // 30) AS object_id, 'Show HN: ' || r.name AS title,
  'https://github.com/' || r.owner || '/' || r.name AS url, lower(r.owner || '/' || r.name) AS repo_full_name,
  (r.i % 300) AS points, (r.i % 80) AS num_comments, (s.run_date - 1)::TIMESTAMP AS created_at, 'someone' AS author,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 53 = 5 AND (s.n + r.i) % 30 = 0;

INSERT INTO raw_arxiv_papers BY NAME
SELECT s.run_date, '2501.' || lpad((r.i % 99999)::VARCHAR, 5, '0') AS arxiv_id, 1 AS version,
  [lower(r.owner || '/' || r.name)] AS repo_full_names, 'Paper on ' || r.name AS title, 'abstract' AS summary,
  ['A. Author'] AS authors, r.created::TIMESTAMP AS published_at, r.created::TIMESTAMP AS updated_at,
  'cs.LG' AS primary_category, ['cs.LG'] AS categories, NULL AS abs_url, NULL AS pdf_url, NULL AS doi, NULL AS comment,
  s.run_date::TIMESTAMP AS fetched_at
FROM night s
CROSS JOIN bench_repos r
WHERE r.i % 101 = 6 AND (s.n + r.phase) % 7 = 0;

