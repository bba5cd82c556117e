-- Before score_quality.sql's one run over every night of a list (after score_components.sql's, list_scored.sql):
-- classify_input.sql has found every night's rows new (no classification is kept before the first night), so
-- classify_input holds each row's classification inputs and their hash; each row's classification is the one run's
-- result for its inputs (list_classified), as the nightly's kept classifications hold it on that night. The kept table
-- stands aside meanwhile (list_quality_kept.sql puts it back, still empty for the first night).
SELECT CASE WHEN count(*) > 0 THEN error('list replay: ' || count(*) || ' classification input(s) not classified before the first night, e.g. ' || any_value(i.full_name)) END
FROM classify_input i
ANTI JOIN list_classified c USING (input_hash);
ALTER TABLE classifications RENAME TO list_kept_classifications;
CREATE VIEW classifications AS
SELECT i.node_id, i.input_hash, getvariable('classifier') AS classifier, c.* EXCLUDE (input_hash)
FROM classify_input i
JOIN list_classified c USING (input_hash);
