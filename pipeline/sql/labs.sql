-- labs (public): organisations and their tracked projects (ds_lab_projects lists them; `releases` their releases):
-- per lab its project count, total stars, average quality score, top domain (most projects, then most stars) and
-- most-starred project. Canonical order: stars DESC, slug.
CREATE OR REPLACE TABLE labs AS
WITH domains AS (
  SELECT lab_slug, domain
  FROM ds_lab_projects
  WHERE domain IS NOT NULL
  GROUP BY lab_slug, domain
  QUALIFY row_number() OVER (PARTITION BY lab_slug ORDER BY count(*) DESC, sum(stars) DESC, domain) = 1
)
SELECT
  p.lab_slug AS slug,
  any_value(p.lab_name) AS name,
  any_value(p.lab_kind) AS kind,
  any_value(p.lab_homepage) AS homepage,
  any_value(p.lab_owners) AS owners,
  any_value(p.lab_source) AS source,
  count(*) AS projects,
  sum(p.stars) AS stars,
  round(avg(p.quality_score), 1) AS avg_quality_score,
  any_value(d.domain) AS top_domain,
  first(p.full_name ORDER BY p.stars DESC, p.full_name) AS top_project
FROM ds_lab_projects p
LEFT JOIN domains d USING (lab_slug)
GROUP BY p.lab_slug
ORDER BY stars DESC, slug;
