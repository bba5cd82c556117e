-- lab_detail: every lab as a lab detail (schemas/activity-records.ts labDetailSchema) from the public table labs,
-- with its projects (ds_lab_projects, most stars first), its projects by domain and the newest 20 releases of its
-- projects (MAX_LAB_RELEASES; `releases`, newest first), sharded into 256 partitions by the first two hex digits of
-- md5(slug) (route-spec.ts shardOf), keyed by slug, rendered in passes over groups of shards (getvariable('partitions'),
-- NULL for all): at 220,000 repositories the releases of every lab at once outgrow the warehouse's memory. Times are
-- ISO 8601 UTC.
WITH pass AS (
  SELECT slug AS lab_slug
  FROM labs
  WHERE getvariable('partitions') IS NULL OR list_contains(getvariable('partitions'), left(md5(slug), 2))
),
lab_projects AS (
  SELECT * FROM ds_lab_projects WHERE lab_slug IN (SELECT lab_slug FROM pass)
),
project_lists AS (
  SELECT
    lab_slug,
    list({
      full_name: full_name,
      slug: slug,
      domain: domain,
      stack_layer: stack_layer,
      stars: stars,
      stars_7d_delta: stars_7d_delta,
      quality_score: quality_score,
      quality_tier: quality_tier,
      lifecycle_stage: lifecycle_stage,
      latest_release_tag: nullif(latest_release_tag, ''),
      latest_release_at: strftime(latest_release_at, '%Y-%m-%dT%H:%M:%SZ')
    } ORDER BY stars DESC, full_name) AS projects
  FROM lab_projects
  GROUP BY lab_slug
),
domain_lists AS (
  SELECT lab_slug, list({domain: domain, projects: projects} ORDER BY projects DESC, stars DESC, domain) AS domains
  FROM (
    SELECT lab_slug, domain, count(*) AS projects, sum(stars) AS stars
    FROM lab_projects
    WHERE domain IS NOT NULL
    GROUP BY lab_slug, domain
  )
  GROUP BY lab_slug
),
release_lists AS (
  SELECT
    lab_slug,
    any_value(observed) AS observed,
    list({
      full_name: full_name,
      slug: slug,
      source: source,
      package: package,
      version: version,
      released_at: strftime(released_at, '%Y-%m-%dT%H:%M:%SZ'),
      first_seen: first_seen,
      prerelease: is_prerelease,
      url: CASE source
        WHEN 'pypi' THEN 'https://pypi.org/project/' || package || '/' || url_encode(version) || '/'
        WHEN 'npm' THEN 'https://www.npmjs.com/package/' || package || '/v/' || url_encode(version)
        ELSE 'https://github.com/' || full_name || '/releases/tag/' || url_encode(version)
      END
    } ORDER BY position) AS latest
  FROM (
    -- a release is named after the project as it is called now
    SELECT
      l.lab_slug, l.full_name, l.slug, r.source, r.package, r.version, r.released_at, r.first_seen, r.is_prerelease,
      row_number() OVER w AS position,
      count(*) OVER (PARTITION BY l.lab_slug) AS observed
    FROM lab_projects l
    JOIN releases r USING (node_id)
    WINDOW w AS (PARTITION BY l.lab_slug ORDER BY coalesce(r.released_at, r.first_seen) DESC, l.full_name, r.source, r.version)
    QUALIFY position <= 20
  )
  GROUP BY lab_slug
)
SELECT
  left(md5(b.slug), 2) AS _partition,
  [lower(b.slug)] AS _keys,
  to_json({
    slug: b.slug,
    name: b.name,
    kind: b.kind,
    source: b.source,
    homepage: nullif(b.homepage, ''),
    owners: b.owners,
    project_count: b.projects,
    stars: b.stars,
    avg_quality_score: b.avg_quality_score,
    top_domain: b.top_domain,
    top_project: b.top_project,
    domains: coalesce(d.domains, []),
    projects: coalesce(p.projects, []),
    releases: {observed: coalesce(r.observed, 0), latest: coalesce(r.latest, [])},
    data_date: getvariable('run_date')
  })::VARCHAR AS record
FROM labs b
JOIN pass ON pass.lab_slug = b.slug
LEFT JOIN project_lists p ON p.lab_slug = b.slug
LEFT JOIN domain_lists d ON d.lab_slug = b.slug
LEFT JOIN release_lists r ON r.lab_slug = b.slug
ORDER BY _partition, b.slug
