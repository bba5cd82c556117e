-- Before a list's first night, once every date's rows are in feat_repos (night_input.sql): what the history knows
-- beyond one date's figures, then every night's rows made ready for one run of the nightly's score_components.sql.
-- Commits in the last 30, 90 and 365 days come from the history (list_history.sql: its commit counts, and its own
-- 90-day count where it records one), which the lifecycle (dormant's exit, fading's activity ratio) and the
-- maintenance score read; unknown where the history cannot say.
UPDATE feat_repos f
SET commits_30d = h.commits_30d, commits_90d = h.commits_90d, commits_365d = h.commits_365d
FROM list_history h
WHERE h.snapshot_date = f.run_date AND f.node_id = 'line:' || h.project;
-- every date's rate input is in feat_repos now
DROP TABLE list_rate_docs;
-- every night's rows, kept; each night reads its own through the view feat_repos (list_by_night.sql)
ALTER TABLE feat_repos RENAME TO list_feat_repos;
-- for the one run, each row under an id of its own and scored as of its own night (run_date unset): a row's
-- components read only that repository as of its night, so all nights score in one run as each would alone
CREATE VIEW feat_repos AS
SELECT * REPLACE (node_id || '@' || run_date AS node_id)
FROM list_feat_repos;
SET VARIABLE run_date = NULL::DATE;
