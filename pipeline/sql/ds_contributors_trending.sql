-- ds_contributors_trending: projects gaining the most contributors within contributors_window_days (first vs latest
-- count known in the window, from a base of at least contributors_min_base), the top contributors_trending_size
-- per stack layer, ranked by contributors gained, then growth, then size. Sources give counts, not people.
CREATE OR REPLACE TABLE ds_contributors_trending AS
WITH spans AS (
  SELECT
    node_id,
    min(date) AS start_date,
    max(date) AS end_date,
    arg_min(contributors, date) AS contributors_start,
    arg_max(contributors, date) AS contributors_end
  FROM contributors
  WHERE date > getvariable('run_date') - getvariable('contributors_window_days') AND date <= getvariable('run_date')
  GROUP BY node_id
  HAVING min(date) < max(date)
),
grown AS (
  SELECT
    p.stack_layer,
    p.domain,
    p.full_name,
    p.slug,
    p.stars,
    s.start_date,
    s.end_date,
    s.contributors_start,
    s.contributors_end,
    s.contributors_end - s.contributors_start AS contributors_gained,
    round(100.0 * (s.contributors_end - s.contributors_start) / s.contributors_start, 1) AS growth_pct
  FROM spans s
  JOIN projects p USING (node_id)
  WHERE p.stack_layer IS NOT NULL
    AND s.contributors_start >= getvariable('contributors_min_base')
    AND s.contributors_end > s.contributors_start
)
SELECT
  stack_layer,
  row_number() OVER (
    PARTITION BY stack_layer ORDER BY contributors_gained DESC, growth_pct DESC, contributors_end DESC, full_name
  ) AS rank,
  * EXCLUDE (stack_layer)
FROM grown
QUALIFY rank <= getvariable('contributors_trending_size')
ORDER BY stack_layer, rank;
