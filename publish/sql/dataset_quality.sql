-- dataset_quality: every quality record of the run, for datasets/quality.parquet and datasets/quality.arrow. The
-- columns of score_quality (docs/contracts.md), node_id included as the key that joins the history snapshots, with
-- the values /api/v1/quality serves ("" text is NULL; unknown downloads NULL, as there and in the public database)
-- and fixed types, so the files keep their schema when the warehouse's types drift. Order: domain, then the
-- canonical order of quality lists.
SELECT
  run_date::DATE AS run_date,
  node_id,
  full_name,
  owner,
  name,
  slug,
  nullif(description, '') AS description,
  stars::BIGINT AS stars,
  forks::BIGINT AS forks,
  nullif(language, '') AS language,
  nullif(license, '') AS license,
  domain,
  nullif(subcategory, '') AS subcategory,
  stack_layer,
  nullif(pypi_package, '') AS pypi_package,
  downloads_monthly::BIGINT AS downloads_monthly,
  maintenance_score::INTEGER AS maintenance_score,
  adoption_score::INTEGER AS adoption_score,
  maturity_score::INTEGER AS maturity_score,
  community_score::INTEGER AS community_score,
  quality_score::INTEGER AS quality_score,
  quality_tier
FROM score_quality
ORDER BY domain, quality_score DESC, stars DESC, full_name, node_id
