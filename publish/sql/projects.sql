-- projects: every tracked repository as a search result (schemas/records.ts projectSummarySchema), one partition,
-- in the canonical order of quality lists: quality_score DESC, stars DESC, full_name (node_id breaks exact ties).
-- Name search matches lower(full_name): the whole name or the repository part exactly, then prefixes, then
-- substrings, each group kept in this order; filters are domain, stack layer and subcategory.
SELECT
  domain AS _f_domain,
  stack_layer AS _f_stack_layer,
  nullif(subcategory, '') AS _f_subcategory,
  lower(full_name) AS _search,
  to_json({
    slug: slug,
    full_name: full_name,
    name: name,
    description: nullif(description, ''),
    language: nullif(language, ''),
    domain: domain,
    subcategory: nullif(subcategory, ''),
    stack_layer: stack_layer,
    stars: stars,
    -- NULL (unknown: no download figure was read for it) stays null, as in the datasets and the public database
    downloads_monthly: downloads_monthly,
    quality_score: quality_score,
    quality_tier: quality_tier,
    lifecycle_stage: lifecycle_stage
  })::VARCHAR AS record
FROM projects
ORDER BY quality_score DESC, stars DESC, full_name, node_id
