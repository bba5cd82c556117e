-- What a list's history knows beyond one date's figures, added to tonight's feat_repos after rate/feat_repos.sql:
-- commits in the last 30 and 365 days from the history's commit counts (list_history.sql), which the lifecycle
-- (dormant's exit, fading's activity ratio) and the maintenance score read; unknown where the history cannot say.
UPDATE feat_repos f
SET commits_30d = h.commits_30d, commits_365d = h.commits_365d
FROM list_history h
WHERE h.snapshot_date = getvariable('run_date') AND f.node_id = 'line:' || h.project;
