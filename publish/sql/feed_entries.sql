-- feed_entries: the Atom feed's entries (publish/feed.ts), newest first — the latest lifecycle stage changes (a
-- repository's first night, with no previous stage, is not a change) and this week's briefings of the domains where
-- something happened. $transitions caps the changes; ids are stable, so a reader sees each entry once.
WITH changes AS (
  SELECT
    'transition' AS kind,
    'transition/' || t.node_id || '/' || strftime(t.date, '%Y-%m-%d') AS id,
    format('{}: {} → {}', t.full_name, t.from_stage, t.to_stage) AS title,
    format('{} moved from {} to {} on {}{}.', t.full_name, t.from_stage, t.to_stage, strftime(t.date, '%Y-%m-%d'),
      CASE WHEN p.slug IS NULL THEN ''
        ELSE format(' ({}, {:,} stars, quality {} of 100, {})', p.domain, p.stars, p.quality_score, p.quality_tier)
      END) AS summary,
    '/api/v1/projects/' || coalesce(p.slug, lower(replace(t.full_name, '/', '--'))) AS path,
    t.date AS date,
    p.domain AS category
  FROM transitions t
  LEFT JOIN projects p ON p.full_name = t.full_name
  WHERE t.from_stage IS NOT NULL
  ORDER BY t.date DESC, t.full_name
  LIMIT $transitions
),
briefings AS (
  SELECT
    'briefing' AS kind,
    'briefing/' || slug AS id,
    title,
    summary,
    '/api/v1/briefings/' || slug AS path,
    date::DATE AS date,
    domain AS category
  FROM ds_briefings
  WHERE NOT is_quiet
)
SELECT kind, id, title, summary, path, strftime(date, '%Y-%m-%d') AS date, category
FROM (SELECT * FROM changes UNION ALL SELECT * FROM briefings)
ORDER BY date DESC, kind, id
