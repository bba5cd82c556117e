-- title: Recent releases of verified projects
-- description: Stable releases (GitHub, PyPI, npm) of verified-tier projects published in the 14 days up to
--   the latest run, newest first. Pre-releases are left out.
SELECT
  p.full_name,
  r.source,
  r.version,
  r.released_at,
  p.quality_score
FROM releases r
JOIN projects p ON p.node_id = r.node_id
WHERE p.quality_tier = 'verified' AND NOT r.is_prerelease
  AND r.released_at >= (SELECT max(run_date) FROM projects) - 14
ORDER BY r.released_at DESC, p.full_name, r.source;
