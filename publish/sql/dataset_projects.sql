-- dataset_projects: the public projects table as it is (docs/contracts.md, "Public tables"), for
-- datasets/projects.parquet, ordered by full_name (node_id breaks the tie of a renamed repository's old name).
SELECT *
FROM projects
ORDER BY full_name, node_id
