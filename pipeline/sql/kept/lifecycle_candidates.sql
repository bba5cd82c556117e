-- lifecycle_candidates: the stage each night's facts pointed to for each repository, kept for snapshot_days nights
-- (lifecycle_candidates.sql appends tonight's; the history keeps every night). score_lifecycle reads the last
-- nights' candidates to change a stage only once the same new stage has held for lifecycle_confirm_nights.
-- One row per node_id and date: lifecycle_candidates.sql replaces a night's rows whole from a table of one row per
-- repository.
-- No primary key, as kept/snapshots.sql: at 220,000 repositories its 90 nights are 17 million rows, whose index a
-- restore would build and scoring hold in memory; test/state-snapshot.test.ts checks the rows are unique.
CREATE TABLE IF NOT EXISTS lifecycle_candidates (
  node_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  candidate_stage VARCHAR NOT NULL,
  is_archived BOOLEAN NOT NULL
);
