-- title: Hacker News favourites
-- description: Repositories with the most Hacker News points over the last 90 days, with the number of
--   posts and their star gains over the last 30 days.
SELECT
  full_name,
  hn_posts_90d,
  hn_points_90d,
  stars,
  stars_30d_delta,
  domain
FROM projects
WHERE hn_posts_90d > 0
ORDER BY hn_points_90d DESC, full_name
LIMIT 25;
