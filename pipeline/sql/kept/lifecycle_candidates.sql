-- lifecycle_candidates: the stage each night's facts pointed to for each repository, kept as long as
-- score_lifecycle can read it (lifecycle_candidates.sql appends tonight's, lifecycle_candidates.retain.sql says what
-- stays; the history keeps every night). score_lifecycle reads the last nights' candidates to change a stage only
-- once the same new stage has held for lifecycle_confirm_days days.
-- One row per node_id and date: lifecycle_candidates.sql replaces a night's rows whole from a table of one row per
-- repository.
-- No primary key, as kept/snapshots.sql: a restore would build its index and scoring hold it in memory;
-- test/state-snapshot.test.ts checks the rows are unique.
CREATE TABLE IF NOT EXISTS lifecycle_candidates (
  node_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  candidate_stage VARCHAR NOT NULL,
  is_archived BOOLEAN NOT NULL
);
