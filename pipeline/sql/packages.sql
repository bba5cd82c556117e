-- packages (public): feat_packages as published, the registry packages of tracked projects with full_name as
-- GitHub spells it. Canonical order: registry, package.
CREATE OR REPLACE TABLE packages AS
SELECT
  f.registry,
  f.package,
  p.full_name,
  f.version,
  f.license,
  f.versions_total,
  f.stable_releases,
  f.prereleases,
  f.first_release_at,
  f.latest_release_at,
  f.downloads_monthly,
  f.downloads_weekly,
  f.pulls_total,
  f.likes,
  f.dependencies,
  f.dependents,
  f.deprecated,
  f.as_of,
  f.is_stale
FROM feat_packages f
JOIN projects p ON lower(p.full_name) = f.repo_full_name
ORDER BY f.registry, f.package;
