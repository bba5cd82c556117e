-- projects (public): one row per tracked repository with its metadata, classification, the four components,
-- score and tier, star trends, hype ratio and lifecycle stage — the table behind every project endpoint (each
-- score's explanation, input by input, is in score_explanations). Unordered: readers order (sorting 220,000 wide rows here cost seconds).
CREATE OR REPLACE TABLE projects AS
SELECT
  getvariable('run_date') AS run_date,
  f.node_id,
  f.full_name,
  f.owner,
  f.name,
  f.slug,
  f.description,
  f.homepage,
  f.language,
  f.license,
  f.topics,
  f.created_at,
  f.pushed_at,
  f.last_commit_at,
  f.is_archived,
  f.is_fork,
  f.stars,
  f.forks,
  f.watchers,
  f.open_issues,
  f.closed_issues,
  f.contributors,
  f.commits_30d,
  f.commits_90d,
  f.commits_52w,
  f.issue_response_median_hours,
  f.releases_total,
  f.latest_release_tag,
  f.latest_release_at,
  f.pypi_package,
  f.npm_package,
  f.docker_image,
  f.hf_models,
  f.downloads_monthly,
  f.pypi_downloads_monthly,
  f.npm_downloads_monthly,
  f.hf_downloads_monthly,
  f.docker_pulls,
  f.dependents,
  f.hn_posts_90d,
  f.hn_points_90d,
  f.papers,
  c.domain,
  c.subcategory,
  c.stack_layer,
  c.rule AS classification_rule,
  q.maintenance_score,
  q.adoption_score,
  q.maturity_score,
  q.community_score,
  q.quality_score,
  q.quality_tier,
  s.stars_7d_delta,
  s.stars_30d_delta,
  s.growth_7d_pct,
  s.growth_30d_pct,
  s.momentum,
  -- attention against adoption on log scales, as a share: 0.5 balanced, 1 all attention (see the hype constants)
  -- (a list's tracked dependents are unknown, NULL: its adoption is read from downloads alone)
  CASE WHEN f.stars + f.hn_points_90d + f.downloads_monthly + coalesce(f.dependents, 0) > 0 THEN round(
    ln(1 + f.stars + f.hn_points_90d) / (
      ln(1 + f.stars + f.hn_points_90d)
      + ln(1 + f.downloads_monthly / getvariable('hype_downloads_per_star')
          + coalesce(f.dependents, 0) * getvariable('hype_stars_per_dependent'))
    ), 3) END AS hype_ratio,
  l.lifecycle_stage,
  l.lifecycle_since,
  t.first_seen,
  f.is_stale,
  -- scored without its collection shard (score --carry-missing): its values are the previous night's
  coalesce(f.is_stale AND k.node_id IS NOT NULL, false) AS is_carried
FROM feat_repos f
JOIN classifications c USING (node_id)
JOIN score_quality q USING (node_id)
JOIN score_lifecycle l USING (node_id)
JOIN feat_tracked t USING (node_id)
LEFT JOIN feat_stars s USING (node_id)
LEFT JOIN (SELECT node_id FROM shard_carried WHERE run_date = getvariable('run_date')) k USING (node_id);
