-- raw_hf_models: one row per Hugging Face model per run day, from /api/models/<id> (found by author).
-- repo_full_name is the tracked GitHub repository (lower-cased) the card data or README links, or the model's namesake.
CREATE TABLE IF NOT EXISTS raw_hf_models (
  run_date DATE NOT NULL,
  model_id VARCHAR NOT NULL,        -- canonical author/name
  repo_full_name VARCHAR NOT NULL,
  matched_by VARCHAR NOT NULL,      -- 'card' or 'readme' (links the repository) or 'name' (named after it)
  author VARCHAR,
  downloads BIGINT,                 -- last 30 days, as the Hub counts them
  likes INTEGER,
  tags VARCHAR[] NOT NULL,
  pipeline_tag VARCHAR,
  library_name VARCHAR,
  license VARCHAR,                  -- from the license:<id> tag
  arxiv_ids VARCHAR[] NOT NULL,     -- from arxiv:<id> tags
  linked_repos VARCHAR[] NOT NULL,  -- every GitHub owner/name the card data mentions
  gated BOOLEAN NOT NULL,
  created_at TIMESTAMP,
  last_modified TIMESTAMP,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, model_id)
);
