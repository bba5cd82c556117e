-- Classifying a list's history once: classify_input.sql has run over every row of every date (rate_json holding
-- the whole history, list_nights.sql), so classify_input holds each row's classification inputs and their hash.
-- Each distinct input is kept once, under a node id of its hash, for feat_classification.sql to classify them all in
-- one run (a repository's classification reads only its own inputs and the taxonomy); list_classify_saved.sql then
-- keeps the result by input hash, which each night's list_classify.sql reads instead of classifying again.
CREATE OR REPLACE TABLE classify_input AS
SELECT * REPLACE ('input:' || input_hash AS node_id)
FROM classify_input
QUALIFY row_number() OVER (PARTITION BY input_hash ORDER BY node_id) = 1;
