-- One date of a list's replay, as of getvariable('run_date'): the projects the list recorded that date become the rate
-- input (that date's document of list_nights.sql) that rate/feat_repos.sql adds to feat_repos; every date's, oldest
-- first, before the first night (list_scored.sql). A project not listed that date has no row that night.
CREATE OR REPLACE TEMP TABLE rate_json AS
SELECT coalesce(any_value(doc), '[]') AS doc
FROM list_rate_docs
WHERE snapshot_date = getvariable('run_date');
