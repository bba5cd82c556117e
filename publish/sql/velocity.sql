-- velocity: the commit-activity leaderboard (schemas/activity-records.ts velocityRecordSchema) from ds_velocity,
-- the projects with at least one commit in the last 30 days in its order: commits_30d DESC, then the weekly count,
-- commits_90d, stars, full_name. The projects without commits come last there, so rank (on the whole board) and
-- domain_rank (within the domain) are those of ds_velocity, with no gaps.
SELECT
  v.domain AS _f_domain,
  v.stack_layer AS _f_stack_layer,
  to_json({
    rank: v.rank,
    domain_rank: v.domain_rank,
    full_name: p.full_name,
    name: p.name,
    slug: p.slug,
    description: nullif(p.description, ''),
    language: nullif(p.language, ''),
    domain: p.domain,
    subcategory: nullif(p.subcategory, ''),
    stack_layer: p.stack_layer,
    commits_30d: v.commits_30d,
    commits_4w: v.commits_4w,
    commits_90d: v.commits_90d,
    contributors: v.contributors,
    stars: v.stars,
    last_commit_at: strftime(p.last_commit_at, '%Y-%m-%dT%H:%M:%SZ'),
    lifecycle_stage: p.lifecycle_stage,
    quality_score: p.quality_score,
    quality_tier: p.quality_tier
  })::VARCHAR AS record
FROM ds_velocity v
JOIN projects p USING (slug)
WHERE v.commits_30d > 0
ORDER BY v.rank
