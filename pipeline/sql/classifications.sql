-- classifications (kept table, DDL in kept/classifications.sql): tonight's new classifications (feat_classification,
-- over classify_input) replace the kept ones of their repositories.
INSERT INTO classifications
SELECT c.node_id, i.input_hash, getvariable('classifier'), c.domain, c.subcategory, c.stack_layer, c.rule
FROM feat_classification c
JOIN classify_input i USING (node_id)
ON CONFLICT (node_id) DO UPDATE SET
  input_hash = excluded.input_hash,
  classifier = excluded.classifier,
  domain = excluded.domain,
  subcategory = excluded.subcategory,
  stack_layer = excluded.stack_layer,
  rule = excluded.rule;
