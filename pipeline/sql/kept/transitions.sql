-- transitions: every lifecycle stage change, kept across nights (built night by night by transitions.sql; the
-- history's daily snapshots hold the same stages, so it can be rebuilt). from_stage is NULL on a repository's
-- first night. A repository's current stage is the to_stage of its latest row.
CREATE TABLE IF NOT EXISTS transitions (
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  date DATE NOT NULL,
  from_stage VARCHAR,
  to_stage VARCHAR NOT NULL,
  PRIMARY KEY (node_id, date)
);
