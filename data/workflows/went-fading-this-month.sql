-- title: Established projects that went fading this month
-- description: Projects whose lifecycle stage changed from established to fading in the 30 days up to the
--   latest run, most-starred first, with their recent star change and commit activity.
SELECT
  t.full_name,
  t.date AS faded_on,
  p.stars,
  p.stars_30d_delta,
  p.commits_30d,
  p.quality_score,
  p.domain
FROM transitions t
JOIN projects p ON p.node_id = t.node_id
WHERE t.from_stage = 'established' AND t.to_stage = 'fading'
  AND t.date > (SELECT max(run_date) FROM projects) - 30
ORDER BY p.stars DESC, t.full_name;
