-- contributors_trending: projects gaining the most contributors (schemas/activity-records.ts
-- contributorsTrendingRecordSchema) from ds_contributors_trending, the top of each stack layer, in one list ordered
-- as each layer's leaderboard is (contributors gained DESC, growth DESC, latest count DESC, full_name): filtered by
-- stack layer it is that layer's leaderboard, rank its position there.
SELECT
  c.stack_layer AS _f_stack_layer,
  c.domain AS _f_domain,
  to_json({
    rank: c.rank,
    stack_layer: c.stack_layer,
    full_name: p.full_name,
    name: p.name,
    slug: p.slug,
    description: nullif(p.description, ''),
    language: nullif(p.language, ''),
    domain: c.domain,
    stars: c.stars,
    contributors_start: c.contributors_start,
    contributors_end: c.contributors_end,
    contributors_gained: c.contributors_gained,
    growth_pct: c.growth_pct,
    start_date: c.start_date,
    end_date: c.end_date,
    lifecycle_stage: p.lifecycle_stage,
    quality_score: p.quality_score,
    quality_tier: p.quality_tier
  })::VARCHAR AS record
FROM ds_contributors_trending c
JOIN projects p USING (slug)
ORDER BY c.contributors_gained DESC, c.growth_pct DESC, c.contributors_end DESC, c.full_name, c.stack_layer
