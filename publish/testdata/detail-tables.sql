-- The warehouse tables project details read beyond the public ones of pipeline/testdata/public-tables.sql, for its six
-- projects: feat_repos (only the freshness columns), score_explanations and ds_status; and the projects columns that
-- fixture leaves NULL, filled as the pipeline would (the four components adding up to the score, packages matching
-- the packages table). R_1 has four snapshots with gaps between them, R_3 one: both history paths are exercised.
-- The registries were first read on R_1's third night.
UPDATE projects SET
  maturity_score = (quality_score - adoption_score - maintenance_score + 1) // 2,
  community_score = (quality_score - adoption_score - maintenance_score) // 2,
  description = name || ' does things',
  homepage = CASE WHEN node_id = 'R_1' THEN 'https://ollama.com' END,
  language = 'Python',
  license = CASE WHEN node_id <> 'R_4' THEN 'MIT' END,
  topics = [domain],
  created_at = TIMESTAMP '2024-01-02 03:04:05',
  pushed_at = TIMESTAMP '2026-10-31 12:00:00',
  last_commit_at = TIMESTAMP '2026-10-31 11:00:00',
  forks = stars // 10,
  watchers = stars // 100,
  open_issues = 10,
  closed_issues = 20,
  contributors = CASE WHEN node_id = 'R_1' THEN 500 END,
  commits_90d = commits_30d * 3,
  commits_52w = CASE WHEN node_id = 'R_1' THEN 2000 END,
  issue_response_median_hours = CASE WHEN node_id = 'R_1' THEN 5.25 END,
  releases_total = 3,
  pypi_package = CASE node_id WHEN 'R_1' THEN 'ollama' WHEN 'R_2' THEN 'langchain' WHEN 'R_5' THEN 'vecstore' END,
  npm_package = CASE node_id WHEN 'R_1' THEN 'ollama' WHEN 'R_3' THEN 'agentkit' END,
  docker_image = CASE WHEN node_id = 'R_1' THEN 'ollama/ollama' END,
  hf_models = 0,
  pypi_downloads_monthly = CASE node_id WHEN 'R_1' THEN 1500000 WHEN 'R_2' THEN 30000000 WHEN 'R_5' THEN 50000 ELSE 0 END,
  npm_downloads_monthly = CASE node_id WHEN 'R_1' THEN 500000 WHEN 'R_3' THEN 2000 ELSE 0 END,
  hf_downloads_monthly = 0,
  docker_pulls = CASE WHEN node_id = 'R_1' THEN 90000000 ELSE 0 END,
  classification_rule = 'topics: ' || domain,
  lifecycle_since = coalesce(lifecycle_since, first_seen),
  -- feat_stars never loses stars (a day's gain counts from 0): the public fixture's fading project merely stalls
  stars_7d_delta = greatest(stars_7d_delta, 0),
  stars_30d_delta = greatest(stars_30d_delta, 0),
  growth_7d_pct = greatest(growth_7d_pct, 0),
  growth_30d_pct = greatest(growth_30d_pct, 0),
  momentum = greatest(momentum, -1);

UPDATE packages SET pulls_total = 90000000 WHERE registry = 'docker';

-- the registries were first read on 2026-10-25: R_1's two earlier snapshots count no downloads (unknown, not 0)
UPDATE snapshots SET downloads_monthly = CASE WHEN date >= DATE '2026-10-25' THEN 2000000 ELSE 0 END
WHERE node_id = 'R_1';
-- the nightly's snapshots always hold a count (pipeline/sql/kept/snapshots.sql): 0 where the public fixture states
-- none, since a NULL figure is an unknown one, published as null (test/downloads-unknown.test.ts)
UPDATE snapshots SET downloads_monthly = 0 WHERE downloads_monthly IS NULL;

CREATE OR REPLACE TABLE feat_repos AS
SELECT
  node_id,
  run_date,
  run_date - 3 AS details_as_of,
  CASE WHEN node_id IN ('R_1', 'R_2') THEN run_date - 1 END AS activity_as_of
FROM projects;

CREATE OR REPLACE TABLE score_explanations AS
SELECT
  node_id,
  to_json({
    'maintenance': {'points': maintenance_score, 'max_points': 25, 'inputs': [
      {'name': 'commits_90d', 'value': to_json(commits_90d), 'points': maintenance_score, 'fallback': false},
      {'name': 'issue_response_median_hours', 'value': to_json(issue_response_median_hours), 'points': 0,
        'fallback': issue_response_median_hours IS NULL}
    ]},
    'adoption': {'points': adoption_score, 'max_points': 25, 'inputs': [
      {'name': 'downloads_monthly', 'value': to_json(downloads_monthly), 'points': adoption_score, 'fallback': false}
    ]},
    'maturity': {'points': maturity_score, 'max_points': 25, 'inputs': [
      {'name': 'has_license', 'value': to_json(license IS NOT NULL), 'points': maturity_score, 'fallback': false}
    ]},
    'community': {'points': community_score, 'max_points': 25, 'inputs': [
      {'name': 'stars', 'value': to_json(stars), 'points': community_score, 'fallback': false}
    ]},
    'archived': false,
    'finished_project': false,
    'history_share': 1,
    'fallbacks': CASE WHEN issue_response_median_hours IS NULL THEN ['issue_response_median_hours'] ELSE [] END,
    'estimated': []::VARCHAR[],
    'flags': []::VARCHAR[]
  }) AS explanation
FROM projects;

-- npm did not deliver on the run date: its packages' facts are carried forward and not fresh
CREATE OR REPLACE TABLE ds_status AS
SELECT
  DATE '2026-11-01' AS run_date,
  6 AS repositories,
  [{'name': 'projects', 'rows': 6}] AS tables,
  [{'domain': 'agents', 'repositories': 2}] AS domains,
  [
    {'source': 'dockerhub', 'latest_run_date': DATE '2026-11-01', 'rows': 1, 'fresh': true, 'days_behind': 0},
    {'source': 'github', 'latest_run_date': DATE '2026-11-01', 'rows': 6, 'fresh': true, 'days_behind': 0},
    {'source': 'github_rest', 'latest_run_date': DATE '2026-11-01', 'rows': 2, 'fresh': true, 'days_behind': 0},
    {'source': 'npm', 'latest_run_date': DATE '2026-10-31', 'rows': 2, 'fresh': false, 'days_behind': 1},
    {'source': 'pypi', 'latest_run_date': DATE '2026-11-01', 'rows': 3, 'fresh': true, 'days_behind': 0}
  ] AS sources,
  [{'registry': 'pypi', 'packages': 3, 'stale': 1, 'stale_share': 0.3333}] AS stale_packages;

-- alternatives as pipeline/sql/alternatives.sql lists them (a row each): here the one subcategory two projects share
CREATE OR REPLACE TABLE alternatives AS
SELECT
  p.node_id,
  row_number() OVER (PARTITION BY p.node_id ORDER BY o.quality_score DESC, o.full_name)::INTEGER AS position,
  o.full_name, o.slug, o.quality_score, o.quality_tier, o.stars, 'same_subcategory' AS match
FROM projects p
JOIN projects o ON o.subcategory = p.subcategory AND o.node_id <> p.node_id;
