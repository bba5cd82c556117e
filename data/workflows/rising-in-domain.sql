-- title: Rising projects in a domain
-- description: The projects of one domain that gained the most stars over the last 30 days, with their growth,
--   momentum, lifecycle stage and quality score. Archived repositories are left out.
-- param: domain (default agents, from projects.domain): the domain's slug (the domain-overview workflow lists them)
WITH params AS (SELECT $1::VARCHAR AS domain)
SELECT
  p.full_name,
  p.stars,
  p.stars_30d_delta,
  p.growth_30d_pct,
  p.momentum,
  p.lifecycle_stage,
  p.quality_score
FROM projects p, params
WHERE p.domain = params.domain AND NOT p.is_archived AND p.stars_30d_delta > 0
ORDER BY p.stars_30d_delta DESC, p.full_name
LIMIT 25;
