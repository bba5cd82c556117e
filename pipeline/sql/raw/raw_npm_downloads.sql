-- raw_npm_downloads: npm downloads per package per run day from api.npmjs.org: one row for last month's
-- total (/downloads/point/last-month) or one per day of a daily series (/downloads/range, start = end).
CREATE TABLE IF NOT EXISTS raw_npm_downloads (
  run_date DATE NOT NULL,
  package VARCHAR NOT NULL,
  start_date DATE NOT NULL,
  end_date DATE NOT NULL,
  downloads BIGINT NOT NULL,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (run_date, package, start_date, end_date)
);
