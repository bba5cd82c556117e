-- After score_components.sql's one run over every night of a list (list_scored.sql): its rows kept by night, and the
-- nightly's feat_repos and score_components as views of tonight's rows (getvariable('run_date')), so that a night
-- reads them as the nightly reads its tables without building them again (list_last_night.sql makes them tables).
CREATE TABLE list_components AS
SELECT CAST(split_part(node_id, '@', 2) AS DATE) AS night, * REPLACE (split_part(node_id, '@', 1) AS node_id)
FROM score_components
ORDER BY night, node_id;
DROP TABLE score_components;
CREATE OR REPLACE VIEW feat_repos AS
SELECT * FROM list_feat_repos WHERE run_date = getvariable('run_date');
CREATE VIEW score_components AS
SELECT * EXCLUDE (night) FROM list_components WHERE night = getvariable('run_date');
