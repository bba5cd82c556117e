-- title: Labs by average quality
-- description: AI labs (curated organisations, and GitHub owners with several tracked projects) with at least
--   three tracked projects, ranked by the average quality score of their projects, with total stars, top
--   domain and most-starred project.
SELECT
  slug,
  name,
  kind,
  projects,
  avg_quality_score,
  stars,
  top_domain,
  top_project
FROM labs
WHERE projects >= 3
ORDER BY avg_quality_score DESC, stars DESC, slug
LIMIT 50;
