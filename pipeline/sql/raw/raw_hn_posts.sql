-- raw_hn_posts: one row per Hacker News story per run day that links to a tracked GitHub repository,
-- from Algolia's search_by_date over the look-back window (pipeline/sources/hackernews).
CREATE TABLE IF NOT EXISTS raw_hn_posts (
  run_date DATE NOT NULL,
  object_id VARCHAR NOT NULL,       -- the HN item id
  title VARCHAR,
  url VARCHAR NOT NULL,
  repo_full_name VARCHAR NOT NULL,  -- lower-cased owner/name the url points at
  points INTEGER NOT NULL,
  num_comments INTEGER NOT NULL,
  created_at TIMESTAMP NOT NULL,
  author VARCHAR,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, object_id)
);
