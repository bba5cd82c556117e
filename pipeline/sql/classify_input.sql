-- classify_input: what the classification reads of each repository whose inputs or classifier changed since its
-- kept classification (kept/classifications.sql): every repository on a first night or after a taxonomy change,
-- a few a night otherwise. `projintel classify` fills a table of the same name from JSON lines instead, so both
-- run the same feat_classification.sql.
CREATE OR REPLACE TABLE classify_input AS
WITH inputs AS (
  SELECT
    node_id, full_name, owner, name, description, topics, language, pypi_package, npm_package, dependencies,
    hash(full_name, description, topics, language, pypi_package, npm_package, dependencies) AS input_hash
  FROM feat_repos
)
SELECT i.*
FROM inputs i
LEFT JOIN classifications c
  ON c.node_id = i.node_id AND c.input_hash = i.input_hash AND c.classifier = getvariable('classifier')
WHERE c.node_id IS NULL;
