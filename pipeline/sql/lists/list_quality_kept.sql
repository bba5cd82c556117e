-- After score_quality.sql's one run over every night of a list (list_quality_input.sql): its rows kept by night in
-- list_quality, in the order the run gave each night's rows, and the kept classifications back in place.
CREATE TABLE list_quality AS
SELECT CAST(split_part(node_id, '@', 2) AS DATE) AS night, * REPLACE (split_part(node_id, '@', 1) AS node_id)
FROM (SELECT *, row_number() OVER () AS seq FROM score_quality)
ORDER BY night, seq;
ALTER TABLE list_quality DROP COLUMN seq;
DROP TABLE score_quality;
DROP VIEW classifications;
ALTER TABLE list_kept_classifications RENAME TO classifications;
