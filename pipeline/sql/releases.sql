-- releases (public): every release observed — GitHub's latest release, PyPI's and npm's latest version — one row
-- per (source, package or repository, version), kept from the first night it was seen. Built incrementally; equal
-- to the computation over every raw row ≤ run_date (see the DELETE and the window below), so a rerun is idempotent.
CREATE TABLE IF NOT EXISTS releases (
  full_name VARCHAR NOT NULL,   -- owner/name as GitHub spelled it that night (a package's lower-cased link if untracked)
  source VARCHAR NOT NULL,      -- 'github', 'pypi' or 'npm'
  package VARCHAR,              -- the registry package; NULL for GitHub
  version VARCHAR NOT NULL,     -- the release tag on GitHub
  released_at TIMESTAMP,
  is_prerelease BOOLEAN NOT NULL,
  first_seen DATE NOT NULL,     -- the first run date it was observed
  node_id VARCHAR               -- the repository; NULL for a package whose repository is not tracked
);

-- PEP 440 pre-releases (a, b, rc, alpha, beta, pre, preview, c; dev releases) after a digit, the local +part
-- dropped; semver pre-releases (1.2.3-beta.1) on npm; either on GitHub tags, which follow no rule.
CREATE OR REPLACE TEMP MACRO release_pep440_pre(v) AS regexp_matches(
  regexp_replace(lower(v), '\+.*$', ''),
  '\d[._-]?(alpha|beta|preview|pre|rc|a|b|c)[._-]?\d*([._-]?(post|rev|r)[._-]?\d*)?([._-]?dev[._-]?\d*)?$|[._-]?dev[._-]?\d*$'
);
CREATE OR REPLACE TEMP MACRO release_semver_pre(v) AS regexp_matches(v, '^v?\d+\.\d+\.\d+-');

-- A rerun (or an earlier date) first forgets what it would add, then rereads every night after the last release
-- kept: everything seen up to then is already in the table, so the result equals the full computation.
DELETE FROM releases WHERE first_seen >= getvariable('run_date');
SET VARIABLE releases_since = (SELECT coalesce(max(first_seen), DATE '0001-01-01') FROM releases);

INSERT INTO releases BY NAME
WITH repos AS (
  SELECT lower(full_name) AS repo, node_id, full_name FROM projects
),
observed AS (
  SELECT run_date, node_id, full_name, 'github' AS source, NULL::VARCHAR AS package,
    latest_release_tag AS version, latest_release_at AS released_at
  FROM raw_github_repos
  WHERE run_date > getvariable('releases_since') AND run_date <= getvariable('run_date')
    AND latest_release_tag IS NOT NULL
  UNION ALL
  SELECT run_date, NULL, repo_full_name, 'pypi', package, version, latest_release_at
  FROM raw_pypi_projects
  WHERE run_date > getvariable('releases_since') AND run_date <= getvariable('run_date')
    AND repo_full_name IS NOT NULL
  UNION ALL
  SELECT run_date, NULL, repo_full_name, 'npm', package, version, version_published_at
  FROM raw_npm_packages
  WHERE run_date > getvariable('releases_since') AND run_date <= getvariable('run_date')
    AND repo_full_name IS NOT NULL AND version IS NOT NULL
),
firsts AS (
  -- GitHub's rows have no package, the registries' no node id: (source, package, node_id, version) is the key
  SELECT
    source,
    package,
    node_id,
    version,
    min(run_date) AS run_date,
    arg_min(full_name, run_date) AS full_name,
    arg_min(released_at, run_date) AS released_at
  FROM observed
  GROUP BY source, package, node_id, version
)
SELECT
  CASE WHEN f.node_id IS NULL THEN coalesce(r.full_name, f.full_name) ELSE f.full_name END AS full_name,
  f.source,
  f.package,
  f.version,
  f.released_at,
  CASE f.source
    WHEN 'pypi' THEN release_pep440_pre(f.version)
    WHEN 'npm' THEN release_semver_pre(f.version)
    ELSE release_pep440_pre(f.version) OR release_semver_pre(f.version)
  END AS is_prerelease,
  f.run_date AS first_seen,
  coalesce(f.node_id, r.node_id) AS node_id
FROM firsts f
-- a package names its repository lower-cased: GitHub's spelling and node id come from the tracked projects
LEFT JOIN repos r ON r.repo = CASE WHEN f.node_id IS NULL THEN f.full_name END
ANTI JOIN releases k
  ON k.source = f.source AND coalesce(k.package, k.node_id) = coalesce(f.package, f.node_id) AND k.version = f.version;
