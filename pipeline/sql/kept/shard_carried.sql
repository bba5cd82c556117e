-- shard_carried: the repositories of the collection shards a night was scored without (projintel score --shards n
-- --carry-missing): they keep their previous night's values, and projects.is_carried flags them. One row per
-- repository of a missing shard; written by the merge (pipeline/shards.ts), replaced when the night is merged again.
CREATE TABLE IF NOT EXISTS shard_carried (
  run_date DATE NOT NULL,
  node_id VARCHAR NOT NULL,
  shard VARCHAR NOT NULL,       -- the missing shard that owns it, e.g. '2-of-3'
  PRIMARY KEY (run_date, node_id)
);
