-- One date of a list's replay, as of getvariable('run_date'): the projects the list recorded that date become the
-- rate input (rate_json: that date's document of list_nights.sql, rate's own best-of mapping) that the nightly's
-- rate/feat_repos.sql adds to feat_repos. Every date's rows are added so, oldest first, before the first night
-- (list_scored.sql then scores them all at once); each night reads its own date's. A project not listed that date has
-- no row that night, as a repository the nightly did not collect. (Its star counts are in raw_github_repos already.)
CREATE OR REPLACE TEMP TABLE rate_json AS
SELECT coalesce(any_value(doc), '[]') AS doc
FROM list_rate_docs
WHERE snapshot_date = getvariable('run_date');
