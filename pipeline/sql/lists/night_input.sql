-- One night of a list's replay, as of getvariable('run_date'): the projects the list recorded that date become the
-- rate input (rate_json, mapped by list_rate_rows: rate's own best-of mapping, pipeline/lists/history-input.ts) that
-- the nightly's rate/feat_repos.sql turns into feat_repos rows, and their star counts become the night's
-- raw_github_repos rows (feat_stars.sql reads the nights before from there). A project not listed that date has no
-- row tonight, as a repository the nightly did not collect.
DELETE FROM feat_repos;
CREATE OR REPLACE TEMP TABLE rate_json AS
SELECT to_json(coalesce(list(r.rate_row ORDER BY r.project), []))::VARCHAR AS doc
FROM list_rate_rows r
WHERE r.snapshot_date = getvariable('run_date');
INSERT INTO raw_github_repos
SELECT snapshot_date, 'line:' || project, name_then, CAST(round(observed_stars) AS INTEGER)
FROM list_history
WHERE snapshot_date = getvariable('run_date') AND observed_stars IS NOT NULL;
