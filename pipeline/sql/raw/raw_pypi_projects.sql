-- raw_pypi_projects: one row per PyPI project per run day, from the PyPI JSON API (/pypi/<name>/json).
-- repo_full_name is the GitHub repository the project's metadata links to (lower-cased owner/name).
CREATE TABLE IF NOT EXISTS raw_pypi_projects (
  run_date DATE NOT NULL,
  package VARCHAR NOT NULL,     -- normalised name (PEP 503)
  repo_full_name VARCHAR,
  version VARCHAR NOT NULL,
  summary VARCHAR,
  license VARCHAR,
  requires_dist VARCHAR[] NOT NULL,
  releases_total INTEGER NOT NULL,
  stable_releases INTEGER NOT NULL,  -- releases whose version is not a pre-release (PEP 440 a/b/rc/dev)
  first_release_at TIMESTAMP,
  latest_release_at TIMESTAMP,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, package)
);
