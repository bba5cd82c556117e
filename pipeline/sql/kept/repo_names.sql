-- repo_names: every name each repository (GitHub node id) has been collected under, with the first and last
-- nights under it, kept across nights so feat_tracked never rescans every night of raw_github_repos. stint_start
-- is the night the name was last taken up (a repository seen under another name the night before), so
-- A -> B -> A dates the return to A. Folded in night by night by repo_names.sql.
CREATE TABLE IF NOT EXISTS repo_names (
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  first_seen DATE NOT NULL,
  last_seen DATE NOT NULL,
  stint_start DATE,
  PRIMARY KEY (node_id, full_name)
);
