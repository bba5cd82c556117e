-- quality: every scored repository as a quality record (schemas/records.ts qualityRecordSchema), one partition per
-- domain, in the canonical order of quality lists: quality_score DESC, stars DESC, full_name (node_id breaks exact
-- ties). Rank is the score, so tiers and min_score are score ranges; keys are the slug and "=" + the bare name.
SELECT
  domain AS _partition,
  nullif(subcategory, '') AS _f_subcategory,
  quality_score AS _rank,
  [slug, '=' || lower(name)] AS _keys,
  to_json({
    full_name: full_name,
    name: name,
    description: nullif(description, ''),
    stars: stars,
    forks: forks,
    language: nullif(language, ''),
    license: nullif(license, ''),
    subcategory: nullif(subcategory, ''),
    pypi_package: nullif(pypi_package, ''),
    -- NULL (unknown: no download figure was read for it) stays null, as in the datasets and the public database
    downloads_monthly: downloads_monthly,
    quality_score: quality_score,
    quality_tier: quality_tier,
    maintenance_score: maintenance_score,
    adoption_score: adoption_score,
    maturity_score: maturity_score,
    community_score: community_score,
    slug: slug
  })::VARCHAR AS record
FROM score_quality
ORDER BY domain, quality_score DESC, stars DESC, full_name, node_id
