-- What a list's replay prints, after its last night: each listed project's stage, score, tier and star trend on each
-- night, from the nightly's own tables as that night had them (score_lifecycle by night_output.sql, score_quality
-- and feat_stars by their runs over every night, list_by_night.sql).
INSERT INTO list_replay
SELECT
  f.node_id,
  f.run_date,
  l.lifecycle_stage,
  q.quality_score,
  q.quality_tier,
  f.stars,
  s.stars_7d_delta,
  s.stars_30d_delta,
  s.momentum
FROM list_feat_repos f
JOIN list_quality q ON q.night = f.run_date AND q.node_id = f.node_id
JOIN list_stages l ON l.date = f.run_date AND l.node_id = f.node_id
LEFT JOIN list_stars s ON s.night = f.run_date AND s.node_id = f.node_id
ORDER BY f.run_date, f.node_id;
