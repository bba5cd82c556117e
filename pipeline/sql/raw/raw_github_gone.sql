-- raw_github_gone: one row per tracked repository per run day that GitHub answered NOT_FOUND for when
-- refreshed by node id (deleted, or made private). Written by pipeline/sources/github (gone.ts); read by
-- feat_tracked. A repository keeps getting a row each night it is still asked for (TRACKED_FOR_DAYS).
CREATE TABLE IF NOT EXISTS raw_github_gone (
  run_date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  full_name VARCHAR,            -- the last owner/name it was known by; NULL if it never had one
  reason VARCHAR NOT NULL,      -- 'not_found': GraphQL NOT_FOUND for the node id
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, node_id)
);
