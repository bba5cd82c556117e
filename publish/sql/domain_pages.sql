-- domain_pages: the leaderboard of each domain's page (/d/{domain}, publish/pages-domain.ts): its best $rows
-- repositories in the quality lists' order (quality_score DESC, stars DESC, full_name), each with the domain's count
-- and its stars on each of the last 90 nights (night 0 is run_date - 89), for the page's trend lines.
WITH top AS (
  SELECT
    node_id, domain, full_name, slug, description, quality_score, quality_tier, stars, stars_7d_delta,
    lifecycle_stage,
    count(*) OVER (PARTITION BY domain) AS total,
    row_number() OVER (PARTITION BY domain ORDER BY quality_score DESC, stars DESC, full_name, node_id) AS rank
  FROM projects
  QUALIFY rank <= $rows
),
nights AS (
  SELECT node_id, list({night: date_diff('day', getvariable('run_date') - 89, date)::INTEGER, stars: stars::BIGINT}) AS nights
  FROM snapshots
  WHERE date > getvariable('run_date') - 90 AND date <= getvariable('run_date') AND node_id IN (SELECT node_id FROM top)
  GROUP BY node_id
)
SELECT
  domain, rank::INTEGER AS rank, total::INTEGER AS total, full_name, slug, nullif(description, '') AS description,
  quality_score::INTEGER AS quality_score, quality_tier, stars::BIGINT AS stars,
  stars_7d_delta::BIGINT AS stars_7d_delta, lifecycle_stage, coalesce(n.nights, []) AS nights
FROM top LEFT JOIN nights n USING (node_id)
ORDER BY domain, rank
