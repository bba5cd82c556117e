-- snapshots: one row per tracked repository per night, kept across nights (snapshots.sql appends tonight's).
-- The warehouse keeps the last snapshot_days nights; every night is also kept forever in the history's
-- date-partitioned Parquet files (pipeline/history.ts), from which the warehouse can be rebuilt.
-- One row per date and node_id: snapshots.sql replaces a night's rows whole from a table of one row per
-- repository.
-- No primary key: at 220,000 repositories its 90 nights are 17 million rows, loaded from a snapshot in 5.6 s without
-- the key's index and 19.7 s with it, which scoring then holds in memory; test/state-snapshot.test.ts checks.
CREATE TABLE IF NOT EXISTS snapshots (
  date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  stars INTEGER NOT NULL,
  forks INTEGER NOT NULL,
  watchers INTEGER NOT NULL,
  open_issues INTEGER NOT NULL,
  contributors INTEGER,
  commits_30d INTEGER NOT NULL,
  -- NULL: unknown, on a night before any registry (PyPI, npm, Hugging Face) was read (snapshots.sql), or a figure
  -- a list did not state (lists/warehouse_snapshots.sql); 0 is a figure that was read
  downloads_monthly BIGINT,
  dependents INTEGER NOT NULL,
  quality_score INTEGER NOT NULL,
  maintenance_score INTEGER NOT NULL,
  adoption_score INTEGER NOT NULL,
  maturity_score INTEGER NOT NULL,
  community_score INTEGER NOT NULL,
  quality_tier VARCHAR NOT NULL,
  lifecycle_stage VARCHAR NOT NULL
);
-- Warehouses created before downloads_monthly allowed NULL hold it NOT NULL (CREATE TABLE IF NOT EXISTS leaves them
-- as they are): dropping the constraint is idempotent and a catalog change only (a few milliseconds on 10 million rows).
ALTER TABLE snapshots ALTER COLUMN downloads_monthly DROP NOT NULL;
