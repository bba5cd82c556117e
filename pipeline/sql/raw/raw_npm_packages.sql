-- raw_npm_packages: one row per npm package per run day, from its full package document (registry /<name>).
-- repo_full_name is the tracked GitHub repository the package's `repository` links back to (lower-cased).
CREATE TABLE IF NOT EXISTS raw_npm_packages (
  run_date DATE NOT NULL,
  package VARCHAR NOT NULL,
  repo_full_name VARCHAR,
  linked_repo VARCHAR,              -- owner/name the `repository` field names, as normalised
  version VARCHAR,                  -- dist-tags.latest; NULL for a package with every version unpublished
  description VARCHAR,
  versions_total INTEGER NOT NULL,
  created_at TIMESTAMP,
  modified_at TIMESTAMP,
  first_release_at TIMESTAMP,
  latest_release_at TIMESTAMP,      -- newest publish of any version (pre-releases included)
  version_published_at TIMESTAMP,   -- when dist-tags.latest was published
  dependencies VARCHAR[] NOT NULL,  -- dependency names of the latest version
  deprecated BOOLEAN NOT NULL,      -- the latest version carries a deprecation message
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, package)
);
