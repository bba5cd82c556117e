-- lifecycle_candidates (kept table, DDL in kept/lifecycle_candidates.sql): tonight's candidate stage of every tracked
-- repository, replacing a rerun's; nights older than snapshot_days leave the warehouse (the history keeps them).
DELETE FROM lifecycle_candidates
WHERE date >= getvariable('run_date') OR date <= getvariable('run_date') - getvariable('snapshot_days');
INSERT INTO lifecycle_candidates
SELECT node_id, getvariable('run_date'), candidate_stage, is_archived
FROM score_lifecycle
ORDER BY node_id;
