-- lifecycle_candidates: the stage each night's facts pointed to for each repository, kept for snapshot_days nights
-- (lifecycle_candidates.sql appends tonight's; the history keeps every night). score_lifecycle reads the last
-- nights' candidates to change a stage only once the same new stage has held for lifecycle_confirm_nights.
CREATE TABLE IF NOT EXISTS lifecycle_candidates (
  node_id VARCHAR NOT NULL,
  date DATE NOT NULL,
  candidate_stage VARCHAR NOT NULL,
  is_archived BOOLEAN NOT NULL,
  PRIMARY KEY (node_id, date)
);
