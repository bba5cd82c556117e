-- classify_input: what the classification reads of each repository. `projintel classify` fills a table of
-- the same name from JSON lines instead, so both run the same feat_classification.sql.
CREATE OR REPLACE VIEW classify_input AS
SELECT node_id, full_name, owner, name, description, topics, language, pypi_package, npm_package, dependencies
FROM feat_repos;
