-- raw_pypi_downloads: one row per PyPI project per run day, from pypistats (/api/packages/<name>/recent).
CREATE TABLE IF NOT EXISTS raw_pypi_downloads (
  run_date DATE NOT NULL,
  package VARCHAR NOT NULL,
  last_day BIGINT NOT NULL,
  last_week BIGINT NOT NULL,
  last_month BIGINT NOT NULL,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, package)
);
