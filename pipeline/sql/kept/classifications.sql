-- classifications: every repository's current domain, subcategory, stack layer and deciding rule, kept across
-- nights with what they were computed from (a hash of the classification's inputs, and the classifier: the
-- taxonomy file and feat_classification.sql), so a night classifies only the repositories whose name,
-- description, topics, language or packages changed, or all of them when the rules did (classifications.sql).
CREATE TABLE IF NOT EXISTS classifications (
  node_id VARCHAR NOT NULL PRIMARY KEY,
  input_hash UBIGINT NOT NULL,
  classifier VARCHAR NOT NULL,
  domain VARCHAR NOT NULL,
  subcategory VARCHAR,
  stack_layer VARCHAR NOT NULL,
  rule VARCHAR NOT NULL
);
