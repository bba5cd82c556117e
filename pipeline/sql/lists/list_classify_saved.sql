-- The classification of every distinct input of a list's history (feat_classification.sql's one run over
-- list_classify_once.sql's classify_input), kept by input hash for the nights (list_classify.sql); the feat_repos
-- rows of the whole history are dropped, as each night builds its own.
CREATE OR REPLACE TABLE list_classified AS
SELECT i.input_hash, c.* EXCLUDE (node_id)
FROM feat_classification c
JOIN classify_input i USING (node_id);
DELETE FROM feat_repos;
