-- title: Papers with the most-starred implementations
-- description: arXiv papers linked from tracked repositories, ranked by the stars of their most-starred
--   implementation, with how many tracked repositories link each paper.
WITH links AS (
  SELECT arxiv_id, title, published_at, unnest(full_names) AS full_name
  FROM papers
)
SELECT
  l.arxiv_id,
  any_value(l.title) AS title,
  any_value(l.published_at) AS published_at,
  count(DISTINCT p.node_id) AS implementations,
  max(p.stars) AS top_stars,
  arg_max(p.full_name, p.stars) AS top_repository
FROM links l
JOIN projects p ON p.full_name = l.full_name
GROUP BY l.arxiv_id
ORDER BY top_stars DESC, l.arxiv_id
LIMIT 50;
