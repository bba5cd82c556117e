-- A small hand-made set of the public tables, with the columns docs/contracts.md ("Public tables") lists and,
-- for the others those of pipeline/sql/<table>.sql, with the types the score stage gives them; for tests of
-- the public database, the query runner, the workflows and the status table.
CREATE TABLE projects (
  run_date DATE, node_id VARCHAR, full_name VARCHAR, owner VARCHAR, name VARCHAR, slug VARCHAR,
  description VARCHAR, homepage VARCHAR, language VARCHAR, license VARCHAR, topics VARCHAR[],
  created_at TIMESTAMP, pushed_at TIMESTAMP, last_commit_at TIMESTAMP, is_archived BOOLEAN, is_fork BOOLEAN,
  stars INTEGER, forks INTEGER, watchers INTEGER, open_issues INTEGER, closed_issues INTEGER,
  contributors INTEGER, commits_30d INTEGER, commits_90d INTEGER, commits_52w INTEGER,
  issue_response_median_hours DOUBLE, releases_total INTEGER, latest_release_tag VARCHAR,
  latest_release_at TIMESTAMP, pypi_package VARCHAR, npm_package VARCHAR, docker_image VARCHAR,
  hf_models INTEGER, downloads_monthly BIGINT, pypi_downloads_monthly BIGINT, npm_downloads_monthly BIGINT,
  hf_downloads_monthly BIGINT, docker_pulls BIGINT, dependents INTEGER, hn_posts_90d INTEGER,
  hn_points_90d BIGINT, papers INTEGER, domain VARCHAR, subcategory VARCHAR, stack_layer VARCHAR,
  classification_rule VARCHAR, maintenance_score INTEGER, adoption_score INTEGER, maturity_score INTEGER,
  community_score INTEGER, quality_score INTEGER, quality_tier VARCHAR, stars_7d_delta BIGINT,
  stars_30d_delta BIGINT, growth_7d_pct DOUBLE, growth_30d_pct DOUBLE, momentum DOUBLE, hype_ratio DOUBLE,
  lifecycle_stage VARCHAR, lifecycle_since DATE, first_seen DATE, is_stale BOOLEAN, is_carried BOOLEAN
);

INSERT INTO projects BY NAME
SELECT DATE '2026-11-01' AS run_date, *, owner || '--' || name AS slug, owner || '/' || name AS full_name,
  false AS is_archived, false AS is_fork, DATE '2026-08-01' AS first_seen, false AS is_stale, false AS is_carried
FROM (VALUES
  ('R_1', 'ollama', 'ollama', 'inference', 'llm-inference', 'local-runners', 150000, 92, 'verified',
   25, 20, 'established', 210, 2000000, 120, 900, 4000, 0.6, 2.74, 0.8, 0.45, 3, 40, 900),
  ('R_2', 'langchain-ai', 'langchain', 'orchestration', 'agents', 'agent-frameworks', 110000, 88, 'verified',
   25, 19, 'established', 300, 30000000, 900, 400, 2000, 0.36, 1.85, 0.5, 0.38, 5, 25, 600),
  ('R_3', 'acme', 'agentkit', 'orchestration', 'agents', 'agent-frameworks', 5000, 55, 'emerging',
   8, 12, 'growing', 80, 2000, 1, 600, 1500, 13.6, 42.86, 0.9, 0.84, 1, 6, 300),
  ('R_4', 'acme', 'ragbox', 'orchestration', 'rag', 'rag-frameworks', 1200, 35, 'experimental',
   2, 5, 'launching', 40, 100, 0, 300, 800, 33.3, 200.0, 0.95, 0.91, 0, 2, 150),
  ('R_5', 'oldlab', 'vecstore', 'data', 'vector-db', 'vector-databases', 9000, 62, 'established',
   10, 20, 'fading', 2, 50000, 30, -10, -50, -0.11, -0.55, 0.1, 0.49, 0, 0, 0),
  ('R_6', 'acme', 'evalsuite', 'eval', 'ai-evals', 'eval-harnesses', 800, 70, 'established',
   12, 15, 'established', 25, 80000, 12, 5, 20, 0.63, 2.56, 0.2, 0.41, 0, 0, 0)
) AS t(node_id, owner, name, stack_layer, domain, subcategory, stars, quality_score, quality_tier,
  adoption_score, maintenance_score, lifecycle_stage, commits_30d, downloads_monthly, dependents,
  stars_7d_delta, stars_30d_delta, growth_7d_pct, growth_30d_pct, momentum, hype_ratio, papers,
  hn_posts_90d, hn_points_90d);

UPDATE projects SET lifecycle_since = DATE '2026-10-20' WHERE node_id = 'R_5';

CREATE TABLE snapshots (
  date DATE, node_id VARCHAR, full_name VARCHAR, stars INTEGER, forks INTEGER, watchers INTEGER,
  open_issues INTEGER, contributors INTEGER, commits_30d INTEGER, downloads_monthly BIGINT, dependents INTEGER,
  quality_score INTEGER, maintenance_score INTEGER, adoption_score INTEGER, maturity_score INTEGER,
  community_score INTEGER, quality_tier VARCHAR, lifecycle_stage VARCHAR
);

INSERT INTO snapshots BY NAME
SELECT * FROM (VALUES
  (DATE '2026-09-20', 'R_1', 'ollama/ollama', 140000, 90),
  (DATE '2026-10-15', 'R_1', 'ollama/ollama', 146000, 91),
  (DATE '2026-10-25', 'R_1', 'ollama/ollama', 149100, 92),
  (DATE '2026-11-01', 'R_1', 'ollama/ollama', 150000, 92),
  (DATE '2026-11-01', 'R_3', 'acme/agentkit', 5000, 55)
) AS t(date, node_id, full_name, stars, quality_score);

CREATE TABLE transitions (node_id VARCHAR, full_name VARCHAR, date DATE, from_stage VARCHAR, to_stage VARCHAR);

INSERT INTO transitions VALUES
  ('R_3', 'acme/agentkit', DATE '2026-09-15', 'emerging', 'growing'),
  ('R_4', 'acme/ragbox', DATE '2026-10-25', NULL, 'launching'),
  ('R_5', 'oldlab/vecstore', DATE '2026-10-20', 'established', 'fading'),
  ('R_5', 'oldlab/vecstore', DATE '2026-06-01', 'growing', 'established');

CREATE TABLE releases (
  full_name VARCHAR, source VARCHAR, package VARCHAR, version VARCHAR, released_at TIMESTAMP,
  is_prerelease BOOLEAN, first_seen DATE, node_id VARCHAR
);

INSERT INTO releases VALUES
  ('ollama/ollama', 'github', NULL, 'v0.4.0', TIMESTAMP '2026-10-28 10:00:00', false, DATE '2026-10-29', 'R_1'),
  ('ollama/ollama', 'pypi', 'ollama', '0.4.0', TIMESTAMP '2026-10-29 08:00:00', false, DATE '2026-10-30', 'R_1'),
  ('langchain-ai/langchain', 'pypi', 'langchain', '0.3.5', TIMESTAMP '2026-10-10 12:00:00', false, DATE '2026-10-11',
   'R_2'),
  ('langchain-ai/langchain', 'github', NULL, 'v0.4.0rc1', TIMESTAMP '2026-10-30 12:00:00', true, DATE '2026-10-31',
   'R_2'),
  ('acme/agentkit', 'npm', 'agentkit', '1.2.0', TIMESTAMP '2026-10-31 09:00:00', false, DATE '2026-11-01', 'R_3');

CREATE TABLE packages (
  registry VARCHAR, package VARCHAR, full_name VARCHAR, version VARCHAR, license VARCHAR, versions_total INTEGER,
  stable_releases INTEGER, prereleases INTEGER, first_release_at TIMESTAMP, latest_release_at TIMESTAMP,
  downloads_monthly BIGINT, downloads_weekly HUGEINT, pulls_total BIGINT, likes INTEGER, dependencies VARCHAR[],
  dependents BIGINT, deprecated BOOLEAN, as_of DATE, is_stale BOOLEAN
);

INSERT INTO packages BY NAME
SELECT * FROM (VALUES
  ('pypi', 'langchain', 'langchain-ai/langchain', '0.3.5', 900, 30000000, false, ['pydantic']),
  ('pypi', 'ollama', 'ollama/ollama', '0.4.0', 120, 1500000, false, ['httpx']),
  ('npm', 'ollama', 'ollama/ollama', '0.4.0', 80, 500000, false, []::VARCHAR[]),
  ('pypi', 'vecstore', 'oldlab/vecstore', '1.0.0', 30, 50000, true, ['numpy']),
  ('npm', 'agentkit', 'acme/agentkit', '1.2.0', 1, 2000, false, ['ollama']),
  ('docker', 'ollama/ollama', 'ollama/ollama', NULL, 0, 0, false, []::VARCHAR[])
) AS t(registry, package, full_name, version, dependents, downloads_monthly, is_stale, dependencies);

UPDATE packages SET deprecated = false, as_of = DATE '2026-11-01';
UPDATE packages SET as_of = DATE '2026-10-01' WHERE is_stale;

CREATE TABLE posts (
  object_id VARCHAR, title VARCHAR, url VARCHAR, hn_url VARCHAR, full_name VARCHAR, slug VARCHAR, domain VARCHAR,
  points INTEGER, comments INTEGER, author VARCHAR, created_at TIMESTAMP
);

INSERT INTO posts VALUES
  ('9001', 'Show HN: Ollama 0.4', 'https://github.com/ollama/ollama', 'https://news.ycombinator.com/item?id=9001',
   'ollama/ollama', 'ollama--ollama', 'llm-inference', 500, 120, 'jm', TIMESTAMP '2026-10-28 14:00:00');

CREATE TABLE papers (
  arxiv_id VARCHAR, title VARCHAR, authors VARCHAR[], summary VARCHAR, published_at TIMESTAMP,
  updated_at TIMESTAMP, primary_category VARCHAR, categories VARCHAR[], abs_url VARCHAR, pdf_url VARCHAR,
  full_names VARCHAR[], domains VARCHAR[]
);

INSERT INTO papers VALUES
  ('2401.00001', 'Agents all the way down', ['A. Author'], 'Agents.', TIMESTAMP '2024-01-01 00:00:00',
   TIMESTAMP '2024-01-02 00:00:00', 'cs.CL', ['cs.CL'], 'https://arxiv.org/abs/2401.00001',
   'https://arxiv.org/pdf/2401.00001', ['acme/agentkit', 'langchain-ai/langchain'], ['agents']),
  ('2402.00002', 'Boxes of retrieval', ['B. Author'], 'Retrieval.', TIMESTAMP '2024-02-01 00:00:00',
   TIMESTAMP '2024-02-01 00:00:00', 'cs.IR', ['cs.IR'], 'https://arxiv.org/abs/2402.00002',
   'https://arxiv.org/pdf/2402.00002', ['acme/ragbox'], ['rag']);

CREATE TABLE labs (
  slug VARCHAR, name VARCHAR, kind VARCHAR, homepage VARCHAR, owners VARCHAR[], source VARCHAR, projects BIGINT,
  stars HUGEINT, avg_quality_score DOUBLE, top_domain VARCHAR, top_project VARCHAR
);

INSERT INTO labs VALUES
  ('acme', 'acme', 'github-owner', 'https://github.com/acme', ['acme'], 'owner', 3, 7000, 53.3, 'agents',
   'acme/agentkit'),
  ('ollama', 'Ollama', 'company', 'https://ollama.com', ['ollama'], 'curated', 1, 150000, 92.0, 'llm-inference',
   'ollama/ollama');

CREATE TABLE contributors (node_id VARCHAR, full_name VARCHAR, date DATE, contributors INTEGER);

INSERT INTO contributors VALUES
  ('R_1', 'ollama/ollama', DATE '2026-09-20', 450),
  ('R_1', 'ollama/ollama', DATE '2026-10-05', 480),
  ('R_1', 'ollama/ollama', DATE '2026-11-01', 500);
