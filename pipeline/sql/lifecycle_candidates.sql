-- lifecycle_candidates (kept table, DDL in kept/lifecycle_candidates.sql): tonight's candidate stage of every tracked
-- repository, replacing a rerun's; then the older nights score_lifecycle no longer reads leave the warehouse
-- (kept/lifecycle_candidates.retain.sql, which score.ts runs after this file; the history keeps every night).
DELETE FROM lifecycle_candidates WHERE date >= getvariable('run_date');
INSERT INTO lifecycle_candidates
SELECT node_id, getvariable('run_date'), candidate_stage, is_archived
FROM score_lifecycle
ORDER BY node_id;
