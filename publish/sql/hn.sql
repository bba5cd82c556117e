-- hn: Hacker News stories linking tracked projects (schemas/digest-records.ts hnPostSchema) from posts, newest first
-- (created_at DESC, then id), with the linked project and its stars today. _rank is the story's age in days
-- (run_date - its day), so the shim answers each look-back by a rank range over this one list.
SELECT
  date_diff('day', k.created_at::DATE, getvariable('run_date'))::INTEGER AS _rank,
  to_json({
    id: k.object_id,
    title: nullif(k.title, ''),
    url: k.url,
    hn_url: k.hn_url,
    points: k.points,
    comments: k.comments,
    author: nullif(k.author, ''),
    posted_at: strftime(k.created_at, '%Y-%m-%dT%H:%M:%SZ'),
    project: CASE WHEN p.slug IS NOT NULL THEN {full_name: p.full_name, slug: p.slug, domain: p.domain, stars: p.stars} END
  })::VARCHAR AS record
FROM posts k
LEFT JOIN projects p ON p.slug = k.slug
ORDER BY k.created_at DESC, k.object_id DESC
