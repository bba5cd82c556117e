-- raw_arxiv_papers: one row per arXiv paper per run day, from the Atom API (/api/query?id_list=…).
-- repo_full_names are the tracked repositories (lower-cased) whose description, homepage or models link it.
CREATE TABLE IF NOT EXISTS raw_arxiv_papers (
  run_date DATE NOT NULL,
  arxiv_id VARCHAR NOT NULL,        -- versionless, e.g. 2101.05225 or hep-th/9901001
  version INTEGER,                  -- latest version number (the vN of the entry id)
  repo_full_names VARCHAR[] NOT NULL,
  title VARCHAR NOT NULL,
  summary VARCHAR NOT NULL,         -- whitespace collapsed
  authors VARCHAR[] NOT NULL,
  published_at TIMESTAMP NOT NULL,  -- first version
  updated_at TIMESTAMP NOT NULL,    -- latest version
  primary_category VARCHAR,
  categories VARCHAR[] NOT NULL,
  abs_url VARCHAR,
  pdf_url VARCHAR,
  doi VARCHAR,
  comment VARCHAR,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, arxiv_id)
);
