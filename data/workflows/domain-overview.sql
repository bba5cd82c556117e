-- title: Domains at a glance
-- description: Per domain: tracked repositories, total stars, average quality score, how many are
--   verified and how many are rising (launching or growing).
SELECT
  domain,
  count(*) AS projects,
  sum(stars) AS stars,
  round(avg(quality_score), 1) AS avg_quality,
  count(*) FILTER (WHERE quality_tier = 'verified') AS verified,
  count(*) FILTER (WHERE lifecycle_stage IN ('launching', 'growing')) AS rising
FROM projects
GROUP BY domain
ORDER BY projects DESC, stars DESC, domain;
