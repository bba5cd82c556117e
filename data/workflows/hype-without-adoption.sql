-- title: High hype, low adoption
-- description: Projects whose hype ratio is 0.8 or more (attention — stars and Hacker News points — far ahead
--   of downloads and dependents on log scales; 0.5 is balanced) while their adoption score is 10 of 25 or
--   less. Highest hype ratio first.
SELECT
  full_name,
  stars,
  stars_30d_delta,
  hype_ratio,
  adoption_score,
  downloads_monthly,
  dependents
FROM projects
WHERE hype_ratio >= 0.8 AND adoption_score <= 10
ORDER BY hype_ratio DESC, full_name
LIMIT 50;
