-- A list's history (list_raw, read by history_*.sql) as one history per project: list_projects names each project
-- once, list_history holds its row of each snapshot date. The rules (the methodology's "Replaying a list's history"):
--   - a rename keeps one history: a row's github_id and its updated_github_id (the name GitHub now gives it) are one
--     project, and so are two names of the same creation time (to the second) where one is listed only after the
--     other's last date and starts within rename_max_star_change of the stars the other ended with (the list
--     renamed it without saying so); names joined either way, transitively, are one project, named by the name of
--     its latest row;
--   - a project that leaves the list and returns is the same project: its history resumes, its gap stays empty;
--   - a date that lists a project twice (under its old and its new name) keeps the row with the most stars;
--   - a figure a row lacks that an earlier row of the project gave is carried forward from it (the list could not
--     read GitHub or a registry that week: its push date or downloads are unknown, not gone), as a night carries a
--     repository it could not refresh; the star and commit series read only the counts observed (observed_stars),
--     and the 90 days' commit count is never carried (below);
--   - commits in the 30, 90 and 365 days before a date come from the history's commit_count: its change since the
--     count on the window's first day, read off the line between the snapshots around that day when they are at
--     most snapshot_gap_max_days apart (as star windows are, feat_stars.sql), unknown otherwise;
--   - the 90 days' count is the list's own (recent_commit_count) where the list records it: the list leaves it empty
--     when it is 0 (no row holds 0), so on a date where any row has the figure, a row that read its commit count and
--     has none had no commit in 90 days; it is never carried forward (an old count would keep a project that went
--     quiet busy for ever). Where the date has no such figure (the list added it later), the commit_count's change
--     counts, and failing that, a last push more than 90 days before the date means none.
CREATE OR REPLACE TABLE list_named AS
SELECT
  *,
  trim(github_id) AS listed_as,
  coalesce(nullif(trim(updated_github_id), ''), trim(github_id)) AS name_then
FROM list_raw
WHERE nullif(trim(github_id), '') IS NOT NULL AND snapshot_date IS NOT NULL;

CREATE OR REPLACE TABLE list_projects AS
WITH RECURSIVE names AS (
  SELECT lower(name_then) AS n, min(created_at) AS created, min(snapshot_date) AS first, max(snapshot_date) AS last,
    arg_min(star_count, snapshot_date) AS first_stars, arg_max(star_count, snapshot_date) AS last_stars
  FROM list_named
  GROUP BY 1
),
edges AS (
  SELECT DISTINCT lower(listed_as) AS a, lower(name_then) AS b FROM list_named WHERE lower(listed_as) <> lower(name_then)
  UNION
  SELECT x.n, y.n
  FROM names x
  JOIN names y ON x.created = y.created AND x.n < y.n AND (
    x.last < y.first
      AND abs(y.first_stars - x.last_stars) <= getvariable('rename_max_star_change') * greatest(x.last_stars, 1)
    OR y.last < x.first
      AND abs(x.first_stars - y.last_stars) <= getvariable('rename_max_star_change') * greatest(y.last_stars, 1)
  )
),
both_ways AS (
  SELECT a, b FROM edges UNION SELECT b, a FROM edges
),
walk(n, root) AS (
  SELECT n, n FROM (SELECT n FROM names UNION SELECT a FROM both_ways)
  UNION
  SELECT e.b, w.root FROM walk w JOIN both_ways e ON e.a = w.n
),
component AS (
  SELECT n, min(root) AS root FROM walk GROUP BY n
),
rows AS (
  SELECT c.root, l.name_then, l.listed_as, l.snapshot_date
  FROM list_named l
  JOIN component c ON c.n = lower(l.name_then)
)
SELECT
  row_number() OVER (ORDER BY arg_max(name_then, snapshot_date))::INTEGER AS project,
  root,
  arg_max(name_then, snapshot_date) AS full_name,
  list_sort(list_distinct(list(name_then) || list(listed_as))) AS names,
  min(snapshot_date) AS first_date,
  max(snapshot_date) AS last_date
FROM rows
GROUP BY root;

CREATE OR REPLACE TABLE list_history AS
WITH picked AS (
  SELECT p.project, l.*
  FROM list_named l
  JOIN (SELECT unnest(names) AS name, project FROM list_projects) n ON lower(n.name) = lower(l.name_then)
  JOIN list_projects p USING (project)
  QUALIFY row_number() OVER (
    PARTITION BY p.project, l.snapshot_date ORDER BY l.star_count DESC NULLS LAST, l.listed_as = l.name_then DESC
  ) = 1
),
carried AS (
  SELECT
    project, snapshot_date, listed_as, name_then, star_count AS observed_stars, recent_commit_count,
    last_value(COLUMNS(* EXCLUDE (project, snapshot_date, listed_as, name_then, recent_commit_count)) IGNORE NULLS) OVER (
      PARTITION BY project ORDER BY snapshot_date ROWS UNBOUNDED PRECEDING
    )
  FROM picked
),
counted AS (
  SELECT project, snapshot_date AS day, commit_count FROM picked WHERE commit_count IS NOT NULL
),
windows AS (
  SELECT p.project, p.snapshot_date, w.days, p.commit_count
  FROM picked p
  CROSS JOIN (VALUES (30), (90), (365)) AS w(days)
),
ends AS (
  -- the counts on or before and after each window's first day
  SELECT w.*, b.day AS day_before, b.commit_count AS count_before, a.day AS day_after, a.commit_count AS count_after
  FROM windows w
  ASOF LEFT JOIN counted b ON w.project = b.project AND w.snapshot_date - w.days >= b.day
  ASOF LEFT JOIN counted a ON w.project = a.project AND w.snapshot_date - w.days < a.day
),
commits AS (
  SELECT project, snapshot_date, days,
    -- never negative (a rewritten history), unknown when the count at the window's start is
    CASE WHEN commit_count - count_then IS NOT NULL THEN round(greatest(0, commit_count - count_then)) END AS commits
  FROM (
    SELECT *, CASE
      WHEN day_before = snapshot_date - days THEN count_before
      WHEN date_diff('day', day_before, day_after) <= getvariable('snapshot_gap_max_days') THEN count_before
        + (count_after - count_before) * date_diff('day', day_before, snapshot_date - days)
          / date_diff('day', day_before, day_after)
    END AS count_then
    FROM ends
  )
),
recorded AS (
  -- whether the row read its commit count (carried's is carried forward), and whether its date records the list's
  -- 90-day count for any project
  SELECT project, snapshot_date, commit_count IS NOT NULL AS read_commits,
    bool_or(recent_commit_count IS NOT NULL) OVER (PARTITION BY snapshot_date) AS date_records
  FROM picked
)
SELECT
  p.*,
  CAST(c30.commits AS INTEGER) AS commits_30d,
  CAST(CASE
    WHEN p.recent_commit_count IS NOT NULL THEN p.recent_commit_count
    WHEN r.date_records AND r.read_commits THEN 0
    WHEN c90.commits IS NOT NULL THEN c90.commits
    WHEN date_diff('day', p.last_commit_pushed_at::DATE, p.snapshot_date) > 90 THEN 0
  END AS INTEGER) AS commits_90d,
  CAST(c365.commits AS INTEGER) AS commits_365d
FROM carried p
JOIN recorded r USING (project, snapshot_date)
LEFT JOIN commits c30 ON c30.project = p.project AND c30.snapshot_date = p.snapshot_date AND c30.days = 30
LEFT JOIN commits c90 ON c90.project = p.project AND c90.snapshot_date = p.snapshot_date AND c90.days = 90
LEFT JOIN commits c365 ON c365.project = p.project AND c365.snapshot_date = p.snapshot_date AND c365.days = 365
ORDER BY p.snapshot_date, p.project;
