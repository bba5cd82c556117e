-- The scoring benchmark's synthetic world: ${repos} repositories (temp tables of this connection), whose nights
-- bench/score-night.sql then appends one by one, ${nights} of them ending the night before ${last_night}.
-- Values are deterministic functions of (repository, night). Topics and descriptions come from the taxonomy, so
-- the classification has real work to do.
CREATE TEMP TABLE bench_domains AS
SELECT (ordinality - 1)::INTEGER AS d, dom.slug AS slug, dom.topics AS topics
FROM read_json(${taxonomy_file}) t, unnest(t.domains) WITH ORDINALITY AS u(dom);

CREATE TEMP TABLE bench_repos AS
SELECT
  i::INTEGER AS i,
  'R_' || lpad(i::VARCHAR, 7, '0') AS node_id,
  'owner' || (i % 9000) AS owner,
  'project-' || i AS name,
  (hash(i, 'domain') % 30)::INTEGER AS d,
  -- popularity spans 1 to ~200,000 stars on a log scale
  exp((hash(i, 'pop') % 1000) / 1000.0 * 12.2) AS pop,
  (hash(i, 'grow') % 1000) / 1000.0 AS grow,
  (hash(i, 'act') % 200)::INTEGER AS activity,
  (hash(i, 'phase') % 7)::INTEGER AS phase,
  DATE ${last_night} - ${nights} - (hash(i, 'age') % 2500)::INTEGER AS created
FROM range(${repos}) r(i);

