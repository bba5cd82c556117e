-- ds_status: one row orienting a reader of the data (GET /api/v1/status): the public tables with their row
-- counts, the repository count, the domains with theirs, and per source the latest night with rows in its raw
-- table(s) up to getvariable('run_date'), how many that night, and whether that night is the run date; plus
-- the share of stale packages per registry (feat_packages.is_stale). Runs after the public tables are built.
CREATE OR REPLACE TABLE ds_status AS
WITH table_rows AS (
  SELECT 'projects' AS name, count(*) AS n FROM projects
  UNION ALL SELECT 'snapshots', count(*) FROM snapshots
  UNION ALL SELECT 'releases', count(*) FROM releases
  UNION ALL SELECT 'packages', count(*) FROM packages
  UNION ALL SELECT 'transitions', count(*) FROM transitions
  UNION ALL SELECT 'posts', count(*) FROM posts
  UNION ALL SELECT 'papers', count(*) FROM papers
  UNION ALL SELECT 'labs', count(*) FROM labs
  UNION ALL SELECT 'contributors', count(*) FROM contributors
),
domain_rows AS (
  SELECT domain, count(*) AS n FROM projects GROUP BY domain
),
-- the sources and their raw tables, as pipeline/sources/*/ write them (github_rest and npm write two each)
nights AS (
  SELECT 'github' AS source, run_date, count(*) AS n FROM raw_github_repos GROUP BY ALL
  UNION ALL SELECT 'github_rest', run_date, count(*) FROM raw_github_activity GROUP BY ALL
  UNION ALL SELECT 'github_rest', run_date, count(*) FROM raw_github_stars GROUP BY ALL
  UNION ALL SELECT 'pypi', run_date, count(*) FROM raw_pypi_projects GROUP BY ALL
  UNION ALL SELECT 'pypistats', run_date, count(*) FROM raw_pypi_downloads GROUP BY ALL
  UNION ALL SELECT 'npm', run_date, count(*) FROM raw_npm_packages GROUP BY ALL
  UNION ALL SELECT 'npm', run_date, count(*) FROM raw_npm_downloads GROUP BY ALL
  UNION ALL SELECT 'dockerhub', run_date, count(*) FROM raw_dockerhub_repos GROUP BY ALL
  UNION ALL SELECT 'huggingface', run_date, count(*) FROM raw_hf_models GROUP BY ALL
  UNION ALL SELECT 'hackernews', run_date, count(*) FROM raw_hn_posts GROUP BY ALL
  UNION ALL SELECT 'arxiv', run_date, count(*) FROM raw_arxiv_papers GROUP BY ALL
),
source_names AS (
  SELECT unnest([
    'github', 'github_rest', 'pypi', 'pypistats', 'npm', 'dockerhub', 'huggingface', 'hackernews', 'arxiv'
  ]) AS source
),
latest AS (
  SELECT source, max(run_date) AS latest_run_date
  FROM nights
  WHERE run_date <= getvariable('run_date')
  GROUP BY source
),
freshness AS (
  SELECT
    s.source,
    l.latest_run_date,
    coalesce(sum(n.n), 0)::BIGINT AS rows,
    coalesce(l.latest_run_date = getvariable('run_date'), false) AS fresh,
    (getvariable('run_date') - l.latest_run_date)::INTEGER AS days_behind
  FROM source_names s
  LEFT JOIN latest l USING (source)
  LEFT JOIN nights n ON n.source = s.source AND n.run_date = l.latest_run_date
  GROUP BY ALL
),
stale_packages AS (
  SELECT
    registry,
    count(*) AS packages,
    count(*) FILTER (WHERE is_stale) AS stale,
    round(count(*) FILTER (WHERE is_stale) / count(*), 4) AS stale_share
  FROM feat_packages
  GROUP BY registry
)
SELECT
  getvariable('run_date')::DATE AS run_date,
  (SELECT count(*) FROM projects) AS repositories,
  (SELECT list({'name': name, 'rows': n} ORDER BY name) FROM table_rows) AS tables,
  (SELECT list({'domain': domain, 'repositories': n} ORDER BY n DESC, domain) FROM domain_rows) AS domains,
  (
    SELECT list({
      'source': source, 'latest_run_date': latest_run_date, 'rows': rows, 'fresh': fresh,
      'days_behind': days_behind
    } ORDER BY source)
    FROM freshness
  ) AS sources,
  (
    SELECT list({'registry': registry, 'packages': packages, 'stale': stale, 'stale_share': stale_share}
      ORDER BY registry)
    FROM stale_packages
  ) AS stale_packages;
