-- raw_dockerhub_repos: one row per Docker Hub image per run day, from /v2/repositories/<namespace>/<name>.
-- repo_full_name is the tracked GitHub repository (lower-cased) the image is named after or linked from.
CREATE TABLE IF NOT EXISTS raw_dockerhub_repos (
  run_date DATE NOT NULL,
  image VARCHAR NOT NULL,           -- namespace/name, lower-cased
  repo_full_name VARCHAR NOT NULL,
  matched_by VARCHAR NOT NULL,      -- 'name' (image named owner/name) or 'homepage' (linked from it)
  description VARCHAR,
  pull_count BIGINT NOT NULL,
  star_count INTEGER NOT NULL,
  last_updated TIMESTAMP,           -- last push of any tag
  date_registered TIMESTAMP,
  status VARCHAR,                   -- Docker Hub's status_description, e.g. 'active'
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, image)
);
