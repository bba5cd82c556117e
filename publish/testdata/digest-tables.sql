-- Hand-made digest tables (ds_whats_new, ds_briefings) of the fixture warehouse, with the columns and types of
-- pipeline/sql/ds_whats_new.sql and ds_briefings.sql, naming the projects of pipeline/testdata/public-tables.sql.
CREATE TABLE ds_whats_new AS
SELECT * FROM (VALUES
  ('trending', DATE '2026-11-01', 'acme/agentkit', 'acme--agentkit', 'agents', 'acme/agentkit',
   'acme/agentkit gained 600 stars in 7 days, 5,000 in all.', 'https://github.com/acme/agentkit', 600.0,
   NULL, NULL),
  ('post', DATE '2026-10-28', 'ollama/ollama', 'ollama--ollama', 'llm-inference', 'Show HN: Ollama 0.4',
   '500 points and 120 comments on Hacker News, linking ollama/ollama.', 'https://news.ycombinator.com/item?id=9001',
   500.0, NULL, NULL),
  ('release', DATE '2026-10-20', 'ollama/ollama', 'ollama--ollama', 'llm-inference', 'ollama/ollama v0.4.0',
   'ollama/ollama released v0.4.0 on GitHub.', 'https://github.com/ollama/ollama/releases/tag/v0.4.0', 150000.0,
   'github', 'v0.4.0')
) AS t(kind, date, full_name, slug, domain, title, summary, url, weight, source, version);

CREATE TABLE ds_briefings AS
SELECT
  'agents-2026-w44' AS slug,
  'agents' AS domain,
  DATE '2026-11-01' AS date,
  '2026-w44' AS week,
  'agents: acme/agentkit leads the week' AS title,
  'In agents, 2 projects gained stars, led by acme/agentkit (+600).' AS summary,
  [
    'What rose: acme/agentkit (+600 stars to 5,000, momentum +0.9) and langchain-ai/langchain (+400 stars to 110,000, momentum +0.5).',
    'In numbers: 2 projects tracked with 115,000 stars; in 7 days 2 projects gained stars, 0 releases shipped, 0 projects entered tracking and 0 projects changed stage; 0 projects faded in 30 days.'
  ] AS body,
  ['acme/agentkit', 'langchain-ai/langchain'] AS projects,
  [
    {full_name: 'acme/agentkit', slug: 'acme--agentkit', stars: 5000, stars_7d_delta: 600::BIGINT, momentum: 0.9},
    {full_name: 'langchain-ai/langchain', slug: 'langchain-ai--langchain', stars: 110000, stars_7d_delta: 400::BIGINT, momentum: 0.5}
  ] AS movers,
  []::STRUCT(full_name VARCHAR, slug VARCHAR, stars INTEGER, first_seen DATE, lifecycle_stage VARCHAR)[] AS entrants,
  []::STRUCT(full_name VARCHAR, slug VARCHAR, date DATE, from_stage VARCHAR, to_stage VARCHAR)[] AS transitions,
  []::STRUCT(full_name VARCHAR, slug VARCHAR, version VARCHAR, source VARCHAR, date DATE, url VARCHAR)[] AS releases,
  2::BIGINT AS projects_tracked,
  115000::HUGEINT AS stars_total,
  2::BIGINT AS rose,
  0::BIGINT AS shipped,
  0::BIGINT AS entered,
  0::BIGINT AS moved,
  0::BIGINT AS faded,
  7 AS days,
  30 AS faded_days,
  false AS is_quiet
UNION ALL
SELECT
  'rag-2026-w44', 'rag', DATE '2026-11-01', '2026-w44', 'rag: a quiet week',
  'A quiet week in rag: no project gained stars, shipped a release, entered tracking or changed stage in the last 7 days, and none faded in the last 30 days.',
  ['In numbers: 1 project tracked with 1,200 stars; in 7 days 0 projects gained stars, 0 releases shipped, 0 projects entered tracking and 0 projects changed stage; 0 projects faded in 30 days.'],
  [], [], [], [], [], 1, 1200, 0, 0, 0, 0, 0, 7, 30, true;
