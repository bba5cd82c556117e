-- One night's classification in a list's replay: the repositories classify_input.sql finds new or changed tonight get
-- the classification feat_classification.sql gave their inputs in the one run before the first night
-- (list_classified), as feat_classification; the nightly's classifications.sql then keeps it as a night would.
CREATE OR REPLACE TABLE feat_classification AS
SELECT i.node_id, c.* EXCLUDE (input_hash)
FROM classify_input i
JOIN list_classified c USING (input_hash);
-- every input tonight was among those classified before the first night (else the project would drop out of the
-- score, which joins its classification): stop, naming one
SELECT CASE WHEN count(*) > 0 THEN error('list replay: ' || count(*) || ' classification input(s) not classified before the first night, e.g. ' || any_value(i.full_name)) END
FROM classify_input i
ANTI JOIN list_classified c USING (input_hash);
