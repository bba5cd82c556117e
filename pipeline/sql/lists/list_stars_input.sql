-- After score_components.sql's one run over every night of a list (list_scored.sql): its rows kept by night, then
-- every night's star counts made ready for runs of the nightly's feat_stars.sql over many nights (list_stars_kept.sql).
CREATE TABLE list_components AS
SELECT CAST(split_part(node_id, '@', 2) AS DATE) AS night, * REPLACE (split_part(node_id, '@', 1) AS node_id)
FROM score_components
ORDER BY night, node_id;
DROP TABLE score_components;
-- A star trend reads only days counted from the run date (its window, the gaps before it, a repository's creation),
-- so each night is moved to one common run date, as_of_one_day, with its repositories, their creation and the counts
-- before it moved by the same number of days, under ids of their own: one run gives each night's trends as that night
-- alone would. feat_stars.sql applies its own window to the counts; each night is given only the counts that window
-- can read. A run reads the nights from list_nights_from to list_nights_to (replay.ts: a batch, so that a long
-- history's trends never fill memory at once).
SET VARIABLE as_of_one_day = DATE '2000-01-01';
SET VARIABLE run_date = getvariable('as_of_one_day');
CREATE OR REPLACE VIEW feat_repos AS
SELECT
  node_id || '@' || run_date AS node_id,
  created_at + to_days(CAST(date_diff('day', run_date, getvariable('as_of_one_day')) AS INTEGER)) AS created_at
FROM list_feat_repos
WHERE run_date BETWEEN getvariable('list_nights_from') AND getvariable('list_nights_to');
ALTER TABLE raw_github_repos RENAME TO list_star_counts;
CREATE VIEW raw_github_repos AS
SELECT
  c.run_date + CAST(date_diff('day', n.run_date, getvariable('as_of_one_day')) AS INTEGER) AS run_date,
  n.node_id || '@' || n.run_date AS node_id,
  c.full_name,
  c.stars
FROM list_feat_repos n
JOIN list_star_counts c ON c.node_id = n.node_id
  AND c.run_date <= n.run_date
  AND c.run_date >= n.run_date - getvariable('trend_window_days') - 3 - getvariable('snapshot_gap_max_days')
WHERE n.run_date BETWEEN getvariable('list_nights_from') AND getvariable('list_nights_to');
