-- `projintel demo --list FILE --describe EXPORT` (pipeline/lists/describe.ts): the history FILE with a description on
-- every row that lacks one, from a list export of the same projects (best-of's <date>_projects.csv: github_id and
-- description), matched by the name the row lists the project under or the one it moved to (updated_github_id), in
-- any case. Every other value and the rows' order are kept, so the replay reads the copy as it would read FILE.
CREATE OR REPLACE TEMP TABLE history_read AS SELECT row_number() OVER () AS _row, * FROM ${history};
ALTER TABLE history_read ADD COLUMN IF NOT EXISTS description VARCHAR;
ALTER TABLE history_read ADD COLUMN IF NOT EXISTS updated_github_id VARCHAR;
CREATE OR REPLACE TEMP TABLE export_descriptions AS
SELECT lower(trim(github_id)) AS id, any_value(trim(description)) AS description
FROM ${describe}
WHERE nullif(trim(github_id), '') IS NOT NULL AND nullif(trim(description), '') IS NOT NULL
GROUP BY 1;
-- two equality joins (by either name), not one join on either: DuckDB hashes these, 79,000 rows in a second
CREATE OR REPLACE TEMP TABLE described_history AS
SELECT h.* REPLACE (CASE WHEN nullif(trim(h.description), '') IS NULL
  THEN coalesce(listed.description, moved.description) ELSE h.description END AS description)
FROM history_read h
LEFT JOIN export_descriptions listed ON listed.id = lower(trim(h.github_id))
LEFT JOIN export_descriptions moved ON moved.id = lower(trim(h.updated_github_id));
COPY (SELECT * EXCLUDE (_row) FROM described_history ORDER BY _row) TO ${out} ${options};
