-- Before score_quality.sql's one run over every night of a list (after score_components.sql's, list_scored.sql): each
-- row's classification, the one run's result for its inputs (list_classified), as the kept table holds it that night.
-- classify_input.sql found every night's rows new (nothing is kept before the first night): stop if one was not
-- classified, naming it
SELECT CASE WHEN count(*) > 0 THEN error('list replay: ' || count(*) || ' classification input(s) not classified before the first night, e.g. ' || any_value(i.full_name)) END
FROM classify_input i
ANTI JOIN list_classified c USING (input_hash);
-- the kept table stands aside meanwhile (list_quality_kept.sql puts it back, still empty for the first night)
ALTER TABLE classifications RENAME TO list_kept_classifications;
CREATE VIEW classifications AS
SELECT i.node_id, i.input_hash, getvariable('classifier') AS classifier, c.* EXCLUDE (input_hash)
FROM classify_input i
JOIN list_classified c USING (input_hash);
