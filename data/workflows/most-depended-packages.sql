-- title: Packages with the most dependents
-- description: PyPI and npm packages of tracked repositories that the most other tracked repositories depend
--   on (through a package of their own on the same registry), with monthly downloads.
SELECT
  registry,
  package,
  full_name,
  dependents,
  downloads_monthly,
  version
FROM packages
WHERE registry IN ('pypi', 'npm') AND dependents > 0
ORDER BY dependents DESC, registry, package
LIMIT 50;
