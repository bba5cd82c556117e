-- What one night of a list's replay leaves: each listed project's stage, score, tier and star trend tonight, from
-- the nightly's own tables (score_quality, score_lifecycle, feat_stars), appended to list_replay.
INSERT INTO list_replay
SELECT
  f.node_id,
  getvariable('run_date'),
  l.lifecycle_stage,
  q.quality_score,
  q.quality_tier,
  f.stars,
  s.stars_7d_delta,
  s.stars_30d_delta,
  s.momentum
FROM feat_repos f
JOIN score_quality q USING (node_id)
JOIN score_lifecycle l USING (node_id)
LEFT JOIN feat_stars s USING (node_id);
