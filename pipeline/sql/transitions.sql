-- transitions (kept table, DDL in kept/transitions.sql): tonight's lifecycle changes appended. Rows of tonight
-- or later are replaced first, so running a night again gives the same table.
DELETE FROM transitions WHERE date >= getvariable('run_date');
INSERT INTO transitions
SELECT l.node_id, f.full_name, getvariable('run_date'), l.previous_stage, l.lifecycle_stage
FROM score_lifecycle l
JOIN feat_repos f USING (node_id)
WHERE l.previous_stage IS DISTINCT FROM l.lifecycle_stage
ORDER BY l.node_id;
