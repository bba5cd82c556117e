-- ds_whats_new: the digest of the last whats_new_max_days days, one row per item: kind 'release' (non-pre-releases
-- of tracked projects by released_at; one per version across sources), 'trending' (top whats_new_trending_size by
-- stars_7d_delta, dated run_date), 'post' (HN posts by created_at). "Last N days" is `date > run_date - N`.
CREATE OR REPLACE TEMP MACRO whats_new_count(n, noun) AS
  format('{:,} {}', n, CASE WHEN n = 1 THEN noun ELSE noun || 's' END);

CREATE OR REPLACE TABLE ds_whats_new AS
WITH shipped AS (
  SELECT
    r.released_at::DATE AS date,
    p.full_name,
    p.slug,
    p.domain,
    r.source,
    r.package,
    r.version,
    p.stars
  FROM releases r
  JOIN projects p USING (node_id)
  WHERE NOT r.is_prerelease
    AND r.released_at::DATE > getvariable('run_date') - getvariable('whats_new_max_days')
    AND r.released_at::DATE <= getvariable('run_date')
  -- the same version published on GitHub and a registry is one release: GitHub's, then PyPI's, then npm's
  QUALIFY row_number() OVER (
    PARTITION BY r.node_id, ltrim(lower(r.version), 'v')
    ORDER BY list_position(['github', 'pypi', 'npm'], r.source), r.package
  ) = 1
),
trending AS (
  SELECT *
  FROM projects
  WHERE stars_7d_delta > 0
  QUALIFY row_number() OVER (ORDER BY stars_7d_delta DESC, stars DESC, full_name) <= getvariable('whats_new_trending_size')
)
SELECT
  'release' AS kind,
  date,
  full_name,
  slug,
  domain,
  format('{} {}', full_name, version) AS title,
  format(
    '{} released {} on {}.',
    full_name,
    version,
    CASE source WHEN 'github' THEN 'GitHub' WHEN 'pypi' THEN 'PyPI (' || package || ')' ELSE 'npm (' || package || ')' END
  ) AS summary,
  CASE source
    WHEN 'github' THEN 'https://github.com/' || full_name || '/releases/tag/' || version
    WHEN 'pypi' THEN 'https://pypi.org/project/' || package || '/' || version || '/'
    ELSE 'https://www.npmjs.com/package/' || package || '/v/' || version
  END AS url,
  stars::DOUBLE AS weight,
  source,
  version
FROM shipped
UNION ALL
SELECT
  'trending',
  getvariable('run_date'),
  full_name,
  slug,
  domain,
  full_name,
  format('{} gained {} in 7 days, {:,} in all.', full_name, whats_new_count(stars_7d_delta, 'star'), stars),
  'https://github.com/' || full_name,
  stars_7d_delta::DOUBLE,
  NULL,
  NULL
FROM trending
UNION ALL
SELECT
  'post',
  created_at::DATE,
  full_name,
  slug,
  domain,
  coalesce(title, full_name),
  format('{} and {} on Hacker News, linking {}.', whats_new_count(points, 'point'),
    whats_new_count(comments, 'comment'), full_name),
  hn_url,
  points::DOUBLE,
  NULL,
  NULL
FROM posts
WHERE points >= getvariable('whats_new_post_min_points')
  AND created_at::DATE > getvariable('run_date') - getvariable('whats_new_max_days')
  AND created_at::DATE <= getvariable('run_date')
ORDER BY date DESC, kind, weight DESC, full_name, title;
