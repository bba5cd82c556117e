-- transitions: the lifecycle stage changes of tracked projects (schemas/activity-records.ts transitionRecordSchema)
-- from the public table transitions, those of the last 90 nights (HISTORY_DAYS.max, schemas/params.ts: the longest
-- look-back served), newest first, then most stars, then full_name. A project's first night (from_stage NULL) is not
-- a change. _rank is how many nights ago the change was seen (0: run_date), so a look-back of N days is ranks 0 to N-1.
SELECT
  date_diff('day', t.date, getvariable('run_date'))::INTEGER AS _rank,
  p.domain AS _f_domain,
  t.from_stage AS _f_from_stage,
  t.to_stage AS _f_to_stage,
  to_json({
    date: t.date,
    full_name: p.full_name,
    name: p.name,
    slug: p.slug,
    domain: p.domain,
    stack_layer: p.stack_layer,
    from_stage: t.from_stage,
    to_stage: t.to_stage,
    lifecycle_stage: p.lifecycle_stage,
    stars: p.stars,
    quality_score: p.quality_score,
    quality_tier: p.quality_tier
  })::VARCHAR AS record
FROM transitions t
JOIN projects p USING (node_id)
WHERE t.from_stage IS NOT NULL
  AND t.date <= getvariable('run_date')
  AND t.date > getvariable('run_date') - 90
ORDER BY t.date DESC, p.stars DESC, p.full_name, t.node_id
