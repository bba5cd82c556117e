-- whats_new: the digest (schemas/digest-records.ts whatsNewItemSchema) from ds_whats_new, one list of typed items
-- (post, release, trending) with the numbers each kind is about; filters kind and domain. _rank is the item's age
-- in days (run_date - date), so the shim answers each look-back of 1 to 30 days by a rank range over this one list.
-- Canonical order: newest day first; within a day posts, releases, trending, each by weight (points, the project's
-- stars, stars gained) descending, then the project's stars descending (trending as on its board), full_name,
-- title and url.
SELECT
  w.kind AS _f_kind,
  w.domain AS _f_domain,
  date_diff('day', w.date, getvariable('run_date'))::INTEGER AS _rank,
  to_json({
    kind: w.kind,
    date: strftime(w.date, '%Y-%m-%d'),
    title: w.title,
    summary: w.summary,
    url: w.url,
    full_name: w.full_name,
    slug: w.slug,
    domain: w.domain,
    stars: coalesce(p.stars, 0),
    version: w.version,
    source: w.source,
    stars_7d_delta: CASE WHEN w.kind = 'trending' THEN p.stars_7d_delta END,
    points: k.points,
    comments: k.comments
  })::VARCHAR AS record
FROM ds_whats_new w
LEFT JOIN projects p ON p.slug = w.slug
LEFT JOIN posts k ON w.kind = 'post' AND k.hn_url = w.url
ORDER BY w.date DESC, w.kind, w.weight DESC, p.stars DESC, w.full_name, w.title, w.url
