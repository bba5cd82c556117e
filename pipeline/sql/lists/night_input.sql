-- One night of a list's replay, as of getvariable('run_date'): the projects the list recorded that date become the
-- rate input (rate_json: that date's document of list_nights.sql, rate's own best-of mapping) that the nightly's
-- rate/feat_repos.sql turns into feat_repos rows. A project not listed that date has no row tonight, as a repository
-- the nightly did not collect. (Its star counts are already in raw_github_repos, list_nights.sql.)
DELETE FROM feat_repos;
CREATE OR REPLACE TEMP TABLE rate_json AS
SELECT coalesce(any_value(doc), '[]') AS doc
FROM list_rate_docs
WHERE snapshot_date = getvariable('run_date');
