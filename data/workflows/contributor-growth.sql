-- title: Fastest-growing contributor bases
-- description: Repositories that gained the most contributors over the last 30 days (GitHub's contributor count
--   at its first reading in the window against its latest), with their stars and stack layer.
WITH window_counts AS (
  SELECT
    node_id,
    arg_min(contributors, date) AS contributors_before,
    arg_max(contributors, date) AS contributors_now,
    min(date) AS since
  FROM contributors
  WHERE date >= (SELECT max(date) FROM contributors) - 30
  GROUP BY node_id
)
SELECT
  p.full_name,
  w.contributors_now,
  w.contributors_now - w.contributors_before AS contributors_gained,
  w.since,
  p.stars,
  p.stack_layer
FROM window_counts w
JOIN projects p ON p.node_id = w.node_id
WHERE w.contributors_now > w.contributors_before
ORDER BY contributors_gained DESC, p.full_name
LIMIT 50;
