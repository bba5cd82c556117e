-- A list's history as one CSV (gzipped or not) with a snapshot_date column and best-of-generator's columns, read by
-- DuckDB itself: a row whose date or figure does not parse is set aside in reject_errors with its line number (the
-- figures are typed here so that "5326.0" reads and "n/a" is refused), the other rows are kept.
CREATE OR REPLACE TABLE list_raw AS
SELECT *
FROM read_csv(
  ${source},
  header = true,
  store_rejects = true,
  types = {
    'snapshot_date': 'DATE', 'github_id': 'VARCHAR', 'updated_github_id': 'VARCHAR', 'name': 'VARCHAR',
    'license': 'VARCHAR', 'created_at': 'TIMESTAMPTZ', 'updated_at': 'TIMESTAMPTZ',
    'last_commit_pushed_at': 'TIMESTAMPTZ', 'latest_stable_release_published_at': 'TIMESTAMPTZ',
    'latest_stable_release_number': 'VARCHAR', 'pypi_id': 'VARCHAR', 'npm_id': 'VARCHAR', 'conda_id': 'VARCHAR',
    'dockerhub_id': 'VARCHAR', 'description': 'VARCHAR',
    'commit_count': 'DOUBLE', 'recent_commit_count': 'DOUBLE', 'star_count': 'DOUBLE', 'fork_count': 'DOUBLE',
    'watchers_count': 'DOUBLE', 'contributor_count': 'DOUBLE', 'pr_count': 'DOUBLE', 'open_issue_count': 'DOUBLE',
    'closed_issue_count': 'DOUBLE', 'release_count': 'DOUBLE', 'pypi_monthly_downloads': 'DOUBLE',
    'npm_monthly_downloads': 'DOUBLE', 'conda_total_downloads': 'DOUBLE', 'dockerhub_pulls': 'DOUBLE',
    'dependent_project_count': 'DOUBLE', 'github_dependent_project_count': 'DOUBLE', 'monthly_downloads': 'DOUBLE'
  }
);
