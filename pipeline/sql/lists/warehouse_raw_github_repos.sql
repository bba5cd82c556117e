-- A replayed list's raw_github_repos (the replay's own: run_date, node_id, full_name, stars; raw_github_repos.sql)
-- given the GitHub release each night's row recorded, so the nightly's releases.sql keeps every release the list saw
-- from the night it first saw it. The other columns of the nightly's table stay absent: a list does not record them,
-- and nothing after the replay reads them. Run once, after the replay (pipeline/lists/list-warehouse.ts).
ALTER TABLE raw_github_repos ADD COLUMN IF NOT EXISTS latest_release_tag VARCHAR;
ALTER TABLE raw_github_repos ADD COLUMN IF NOT EXISTS latest_release_at TIMESTAMP;
UPDATE raw_github_repos r
SET latest_release_tag = nullif(trim(h.latest_stable_release_number), ''),
  latest_release_at = CAST(h.latest_stable_release_published_at AS TIMESTAMP)
FROM list_history h
WHERE r.node_id = 'line:' || h.project AND r.run_date = h.snapshot_date;
