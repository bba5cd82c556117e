-- score_quality: one row per tracked repository with its classification, four components, score and tier.
-- The table publish reads for /api/v1/quality (columns fixed in docs/contracts.md).
CREATE OR REPLACE TABLE score_quality AS
SELECT
  getvariable('run_date') AS run_date,
  f.node_id,
  f.full_name,
  f.owner,
  f.name,
  f.slug,
  f.description,
  f.stars,
  f.forks,
  f.language,
  f.license,
  c.domain,
  c.subcategory,
  c.stack_layer,
  f.pypi_package,
  f.downloads_monthly,
  s.maintenance_score,
  s.adoption_score,
  s.maturity_score,
  s.community_score,
  s.maintenance_score + s.adoption_score + s.maturity_score + s.community_score AS quality_score,
  CASE
    WHEN quality_score >= getvariable('tier_verified_min') THEN 'verified'
    WHEN quality_score >= getvariable('tier_established_min') THEN 'established'
    WHEN quality_score >= getvariable('tier_emerging_min') THEN 'emerging'
    ELSE 'experimental'
  END AS quality_tier,
  f.is_stale
FROM feat_repos f
JOIN score_components s USING (node_id)
JOIN classifications c USING (node_id)
ORDER BY c.domain, quality_score DESC, f.stars DESC, f.full_name;
