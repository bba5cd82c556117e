-- `projintel demo --list FILE --describe EXPORT` (pipeline/lists/describe.ts): the history FILE with a description on
-- every row that lacks one, from a list export of the same projects (best-of's <date>_projects.csv: github_id and
-- description), matched by the name the row lists the project under or the one it moved to (updated_github_id), in
-- any case. Every other value and the rows' order are kept, so the replay reads the copy as it would read FILE.
CREATE OR REPLACE TEMP TABLE described_history AS SELECT * FROM ${history};
ALTER TABLE described_history ADD COLUMN IF NOT EXISTS description VARCHAR;
ALTER TABLE described_history ADD COLUMN IF NOT EXISTS updated_github_id VARCHAR;
CREATE OR REPLACE TEMP TABLE export_descriptions AS
SELECT lower(trim(github_id)) AS id, any_value(trim(description)) AS description
FROM ${describe}
WHERE nullif(trim(github_id), '') IS NOT NULL AND nullif(trim(description), '') IS NOT NULL
GROUP BY 1;
UPDATE described_history h
SET description = d.description
FROM export_descriptions d
WHERE nullif(trim(h.description), '') IS NULL
  AND d.id IN (lower(trim(h.github_id)), lower(trim(h.updated_github_id)));
COPY described_history TO ${out} ${options};
