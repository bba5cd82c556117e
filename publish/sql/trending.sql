-- trending: the star-velocity leaderboards (schemas/records.ts trendingRecordSchema), one partition per window.
-- A board holds only the projects that gained stars in its window: a project with no gain, or with an unknown
-- one (tracked for less than the window, without star history), is not among those "gaining the most stars".
-- Canonical order: delta DESC, stars DESC, full_name (node_id breaks exact ties); rank is the position on the
-- window's whole board, so a page filtered by domain, stack layer or subcategory still shows where a project stands.
WITH boards AS (
  SELECT
    b.board,
    p.*,
    CASE b.board WHEN '7d' THEN p.stars_7d_delta ELSE p.stars_30d_delta END AS delta,
    CASE b.board WHEN '7d' THEN p.growth_7d_pct ELSE p.growth_30d_pct END AS growth_pct
  FROM projects p
  CROSS JOIN (VALUES ('7d'), ('30d')) AS b(board)
),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY board ORDER BY delta DESC, stars DESC, full_name, node_id) AS rank
  FROM boards
  WHERE delta > 0
)
SELECT
  board AS _partition,
  domain AS _f_domain,
  stack_layer AS _f_stack_layer,
  nullif(subcategory, '') AS _f_subcategory,
  to_json({
    rank: rank,
    full_name: full_name,
    name: name,
    slug: slug,
    description: nullif(description, ''),
    language: nullif(language, ''),
    domain: domain,
    subcategory: nullif(subcategory, ''),
    stack_layer: stack_layer,
    stars: stars,
    stars_7d_delta: stars_7d_delta,
    stars_30d_delta: stars_30d_delta,
    growth_pct: growth_pct,
    lifecycle_stage: lifecycle_stage,
    quality_score: quality_score,
    quality_tier: quality_tier
  })::VARCHAR AS record
FROM ranked
ORDER BY board, rank
