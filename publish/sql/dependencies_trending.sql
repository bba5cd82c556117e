-- dependencies_trending: PyPI and npm packages with rising downloads (schemas/activity-records.ts
-- dependencyTrendingRecordSchema) from ds_dependencies_trending, the top of each registry, in one list by growth_pct
-- DESC then rank: growth_pct is the ranked growth rounded, so within a registry this is its leaderboard's order and
-- filtered by registry it is that leaderboard, rank its position there.
SELECT
  d.registry AS _f_registry,
  d.domain AS _f_domain,
  to_json({
    rank: d.rank,
    registry: d.registry,
    package: d.package,
    version: k.version,
    url: CASE d.registry
      WHEN 'pypi' THEN 'https://pypi.org/project/' || d.package || '/'
      ELSE 'https://www.npmjs.com/package/' || d.package
    END,
    full_name: p.full_name,
    slug: p.slug,
    domain: d.domain,
    downloads_monthly: d.downloads_monthly,
    downloads_weekly: d.downloads_weekly,
    growth_pct: d.growth_pct,
    growth_method: d.method,
    dependents: coalesce(d.dependents, 0)
  })::VARCHAR AS record
FROM ds_dependencies_trending d
JOIN projects p USING (full_name)
LEFT JOIN packages k ON k.registry = d.registry AND k.package = d.package
ORDER BY d.growth_pct DESC, d.rank, d.registry
