-- ds_lab_projects: the tracked projects of every lab, one row per (lab, project). A lab is a curated organisation
-- of data/labs.json (${labs_file}) owning one tracked project or more, or any other
-- GitHub owner of at least lab_min_projects tracked projects, slugged lower(owner) (owner names are kebab already).
CREATE OR REPLACE TABLE ds_lab_projects AS
WITH curated AS (
  SELECT l.slug, l.name, l.kind, l.homepage, l.owners
  FROM (
    SELECT unnest(labs) AS l
    FROM read_json(
      ${labs_file},
      columns = {labs: 'STRUCT(slug VARCHAR, name VARCHAR, owners VARCHAR[], homepage VARCHAR, kind VARCHAR)[]'}
    )
  )
),
curated_owners AS (
  SELECT slug, lower(unnest(owners)) AS owner_key FROM curated
),
owners AS (
  -- GitHub owners are case-insensitive; the lab is named as the most-starred project spells its owner
  SELECT lower(owner) AS owner_key, arg_max(owner, stars) AS owner, count(*) AS projects
  FROM projects
  GROUP BY lower(owner)
),
derived AS (
  SELECT
    -- a curated slug wins; an owner named like one is told apart
    CASE WHEN o.owner_key IN (SELECT slug FROM curated) THEN o.owner_key || '-github' ELSE o.owner_key END AS slug,
    o.owner AS name,
    'github-owner' AS kind,
    'https://github.com/' || o.owner AS homepage,
    [o.owner] AS owners,
    o.owner_key
  FROM owners o
  WHERE o.projects >= getvariable('lab_min_projects')
    AND o.owner_key NOT IN (SELECT owner_key FROM curated_owners)
),
labs AS (
  SELECT c.slug, c.name, c.kind, c.homepage, c.owners, 'curated' AS lab_source, co.owner_key
  FROM curated c
  JOIN curated_owners co USING (slug)
  UNION ALL
  SELECT slug, name, kind, homepage, owners, 'owner', owner_key
  FROM derived
)
SELECT
  l.slug AS lab_slug,
  l.name AS lab_name,
  l.kind AS lab_kind,
  l.homepage AS lab_homepage,
  l.owners AS lab_owners,
  l.lab_source,
  p.node_id,
  p.full_name,
  p.slug,
  p.domain,
  p.stack_layer,
  p.stars,
  p.stars_7d_delta,
  p.quality_score,
  p.quality_tier,
  p.lifecycle_stage,
  p.latest_release_tag,
  p.latest_release_at
FROM labs l
JOIN projects p ON lower(p.owner) = l.owner_key
ORDER BY l.slug, p.stars DESC, p.full_name;
