-- One batch of feat_stars.sql's runs over a list's nights (list_stars_input.sql): its rows kept by night in list_stars.
CREATE TABLE IF NOT EXISTS list_stars AS
SELECT CAST(split_part(node_id, '@', 2) AS DATE) AS night, * REPLACE (split_part(node_id, '@', 1) AS node_id)
FROM feat_stars
LIMIT 0;
INSERT INTO list_stars
SELECT CAST(split_part(node_id, '@', 2) AS DATE) AS night, * REPLACE (split_part(node_id, '@', 1) AS node_id)
FROM feat_stars
ORDER BY night, node_id;
DROP TABLE feat_stars;
