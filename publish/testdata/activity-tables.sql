-- The warehouse tables the activity endpoints read beyond the public ones (ds_velocity, ds_contributors_trending,
-- ds_dependencies_trending, ds_lab_projects), hand-made for the six projects of pipeline/testdata/public-tables.sql
-- with the columns their pipeline/sql/ds_*.sql files give them. Loaded after detail-tables.sql.
CREATE TABLE ds_velocity AS
SELECT * FROM (VALUES
  (1, 1, 'agents', 'orchestration', 'langchain-ai/langchain', 'langchain-ai--langchain', 110000, 300, 280, 900, NULL),
  (2, 1, 'llm-inference', 'inference', 'ollama/ollama', 'ollama--ollama', 150000, 210, 200, 630, 500),
  (3, 2, 'agents', 'orchestration', 'acme/agentkit', 'acme--agentkit', 5000, 80, NULL, 240, NULL),
  (4, 1, 'rag', 'orchestration', 'acme/ragbox', 'acme--ragbox', 1200, 40, NULL, 120, NULL),
  (5, 1, 'ai-evals', 'eval', 'acme/evalsuite', 'acme--evalsuite', 800, 25, NULL, 75, NULL),
  (6, 1, 'vector-db', 'data', 'oldlab/vecstore', 'oldlab--vecstore', 9000, 2, NULL, 6, NULL)
) AS t(rank, domain_rank, domain, stack_layer, full_name, slug, stars, commits_30d, commits_4w, commits_90d,
  contributors);

CREATE TABLE ds_contributors_trending AS
SELECT * FROM (VALUES
  ('inference', 1, 'llm-inference', 'ollama/ollama', 'ollama--ollama', 150000, DATE '2026-10-05', DATE '2026-11-01',
   480, 500, 20, 4.2),
  ('orchestration', 1, 'agents', 'acme/agentkit', 'acme--agentkit', 5000, DATE '2026-10-10', DATE '2026-11-01',
   8, 12, 4, 50.0)
) AS t(stack_layer, rank, domain, full_name, slug, stars, start_date, end_date, contributors_start, contributors_end,
  contributors_gained, growth_pct);

CREATE TABLE ds_dependencies_trending AS
SELECT * FROM (VALUES
  ('npm', 1, 'agentkit', 'acme/agentkit', 'agents', 2000, NULL, 12.5, 'monthly_total', 1),
  ('pypi', 1, 'ollama', 'ollama/ollama', 'llm-inference', 1500000, 420000, 20.0, 'weekly_rate', 120)
) AS t(registry, rank, package, full_name, domain, downloads_monthly, downloads_weekly, growth_pct, method,
  dependents);

-- every project of each lab of the fixture's labs table, as ds_lab_projects lists them
CREATE TABLE ds_lab_projects AS
SELECT
  l.slug AS lab_slug, l.name AS lab_name, l.kind AS lab_kind, l.homepage AS lab_homepage, l.owners AS lab_owners,
  l.source AS lab_source, p.node_id, p.full_name, p.slug, p.domain, p.stack_layer, p.stars, p.stars_7d_delta,
  p.quality_score, p.quality_tier, p.lifecycle_stage, p.latest_release_tag, p.latest_release_at
FROM labs l
JOIN projects p ON list_contains(l.owners, lower(p.owner))
ORDER BY l.slug, p.stars DESC, p.full_name;
