-- contributors (public): contributor counts per repository over time, one row per (node_id, date) where date is a
-- night GitHub's REST answer was fetched (activity_as_of = run_date; nights that carried a count forward add no
-- row) and full_name its name then. Kept night by night like `releases`: equal to reading every raw row ≤ run_date.
CREATE TABLE IF NOT EXISTS contributors (
  node_id VARCHAR NOT NULL,
  full_name VARCHAR NOT NULL,
  date DATE NOT NULL,
  contributors INTEGER NOT NULL  -- one row per (node_id, date); no index, so nightly appends stay cheap
);

-- a rerun (or an earlier date) forgets its night and later ones, then reads every night after the last kept
DELETE FROM contributors WHERE date >= getvariable('run_date');
SET VARIABLE contributors_since = (SELECT coalesce(max(date), DATE '0001-01-01') FROM contributors);

INSERT INTO contributors
SELECT node_id, full_name, activity_as_of, contributors
FROM raw_github_activity
WHERE run_date > getvariable('contributors_since') AND run_date <= getvariable('run_date')
  AND activity_as_of = run_date AND contributors IS NOT NULL
ORDER BY node_id, activity_as_of;
