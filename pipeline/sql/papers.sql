-- papers (public): arXiv papers linked from tracked repositories, each paper's latest row up to the run date, with
-- the repositories linking it (full_names) and their domains, both sorted. Canonical order: published_at DESC, arxiv_id.
CREATE OR REPLACE TABLE papers AS
WITH latest AS (
  SELECT *
  FROM raw_arxiv_papers
  WHERE run_date <= getvariable('run_date')
  QUALIFY row_number() OVER (PARTITION BY arxiv_id ORDER BY run_date DESC) = 1
),
links AS (
  SELECT l.arxiv_id, list_sort(list_distinct(list(p.full_name))) AS full_names,
    list_sort(list_distinct(list(p.domain))) AS domains
  FROM (SELECT arxiv_id, unnest(repo_full_names) AS repo FROM latest) l
  JOIN projects p ON lower(p.full_name) = l.repo
  GROUP BY l.arxiv_id
)
SELECT
  l.arxiv_id,
  l.title,
  l.authors,
  l.summary,
  l.published_at,
  l.updated_at,
  l.primary_category,
  l.categories,
  l.abs_url,
  l.pdf_url,
  k.full_names,
  k.domains
FROM latest l
JOIN links k USING (arxiv_id)
ORDER BY l.published_at DESC, l.arxiv_id;
