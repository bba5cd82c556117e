-- score-distribution: how tonight's scores spread over a warehouse or public database's `projects` table: the
-- tiers, Spearman's rank correlation of quality_score with stars (the ranks of log(stars) are those of stars,
-- ties at their mean rank), and the median score of the most-starred active projects with a package.
WITH ranked AS (
  SELECT
    *,
    rank() OVER (ORDER BY quality_score) + (count(*) OVER (PARTITION BY quality_score) - 1) / 2 AS score_rank,
    rank() OVER (ORDER BY stars) + (count(*) OVER (PARTITION BY stars) - 1) / 2 AS stars_rank,
    row_number() OVER (ORDER BY stars DESC, full_name) AS by_stars
  FROM projects
),
top AS (
  -- the top_share most starred of all, then those active (not archived, a commit or push within active_days)
  -- with a package on any registry
  SELECT quality_score
  FROM ranked
  WHERE by_stars <= ceil(getvariable('top_share') * (SELECT count(*) FROM projects))
    AND NOT is_archived
    AND coalesce(last_commit_at, pushed_at) >= run_date - to_days(getvariable('active_days'))
    AND (pypi_package IS NOT NULL OR npm_package IS NOT NULL OR docker_image IS NOT NULL OR hf_models > 0)
)
SELECT
  (SELECT any_value(run_date) FROM projects)::VARCHAR AS run_date,
  (SELECT count(*) FROM projects) AS repos,
  (SELECT {
    'verified': count(*) FILTER (WHERE quality_tier = 'verified'),
    'established': count(*) FILTER (WHERE quality_tier = 'established'),
    'emerging': count(*) FILTER (WHERE quality_tier = 'emerging'),
    'experimental': count(*) FILTER (WHERE quality_tier = 'experimental')
  } FROM projects) AS tiers,
  (SELECT round(corr(score_rank, stars_rank), 3) FROM ranked) AS spearman_score_stars,
  (SELECT count(*) FROM top) AS top_active_with_package,
  (SELECT median(quality_score) FROM top) AS top_median_score,
  (SELECT quantile_disc(quality_score, [0.1, 0.25, 0.5, 0.75, 0.9, 0.99]) FROM projects) AS score_quantiles;
