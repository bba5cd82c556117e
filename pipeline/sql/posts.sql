-- posts (public): Hacker News stories linking tracked repositories, each story's latest row up to the run date.
-- Canonical order: created_at DESC, object_id DESC (newest first).
CREATE OR REPLACE TABLE posts AS
WITH latest AS (
  SELECT *
  FROM raw_hn_posts
  WHERE run_date <= getvariable('run_date')
  QUALIFY row_number() OVER (PARTITION BY object_id ORDER BY run_date DESC) = 1
)
SELECT
  l.object_id,
  l.title,
  l.url,
  'https://news.ycombinator.com/item?id=' || l.object_id AS hn_url,
  p.full_name,
  p.slug,
  p.domain,
  l.points,
  l.num_comments AS comments,
  l.author,
  l.created_at
FROM latest l
JOIN projects p ON lower(p.full_name) = l.repo_full_name
ORDER BY l.created_at DESC, l.object_id DESC;
