-- The backtest of a replayed list (list_replay, list_history, transitions): at each quarter from 2021 to 2024, each
-- project's stage against what happened next, beside a naive rule computed from the same rows. One row per figure:
--   not_revived: of projects fading or dormant at T, the share with no push in the 90 days before T + 365 (known
--     for those the list still records within snapshot_gap_max_days before T + 365); naive: quiet for 120 days at T;
--   outgrew_median: of projects growing or launching at T, the share whose stars grew more (relative to their
--     stars at T) over the next 182 days than the median tracked project's; naive: grew more than the median over
--     the 182 days before T;
--   flip_back: of stage changes, the share that re-enters the stage just left within 56 days; naive: the quiet rule
--     applied night by night (fading / active);
--   changes_per_project_year: stage changes over the years each project was replayed (first to last night).
-- A project's state at T is its latest night at or before T, if within snapshot_gap_max_days.
CREATE OR REPLACE TABLE backtest_figures AS
WITH quarters AS (
  SELECT CAST(q AS DATE) AS t FROM range(DATE '2021-01-01', DATE '2025-01-01', INTERVAL 3 MONTH) AS r(q)
),
nights AS (
  SELECT r.node_id, r.date, r.lifecycle_stage, r.stars, h.last_commit_pushed_at
  FROM list_replay r
  JOIN list_history h ON r.node_id = 'line:' || h.project AND r.date = h.snapshot_date
),
at_t AS (
  SELECT q.t, n.node_id, n.date, n.lifecycle_stage, n.stars, n.last_commit_pushed_at
  FROM quarters q
  JOIN nights n ON n.date <= q.t AND n.date > q.t - getvariable('snapshot_gap_max_days')
  QUALIFY row_number() OVER (PARTITION BY q.t, n.node_id ORDER BY n.date DESC) = 1
),
later AS (
  -- the same project's latest night at or before T + days (within the gap tolerance)
  SELECT a.t, a.node_id, w.days, n.stars, n.last_commit_pushed_at
  FROM at_t a
  CROSS JOIN (VALUES (182), (365), (-182)) AS w(days)
  JOIN nights n ON n.node_id = a.node_id AND n.date <= a.t + w.days
    AND n.date > a.t + w.days - getvariable('snapshot_gap_max_days')
  QUALIFY row_number() OVER (PARTITION BY a.t, a.node_id, w.days ORDER BY n.date DESC) = 1
),
judged AS (
  SELECT
    a.t, a.node_id, a.lifecycle_stage,
    a.last_commit_pushed_at < a.t - INTERVAL 120 DAY AS naive_quiet,
    y.last_commit_pushed_at IS NOT NULL AS revival_known,
    y.last_commit_pushed_at < a.t + INTERVAL 365 DAY - INTERVAL 90 DAY AS not_revived,
    h.stars / greatest(a.stars, 1) - 1 AS growth_next,
    a.stars / greatest(p.stars, 1) - 1 AS growth_before
  FROM at_t a
  LEFT JOIN later y ON y.t = a.t AND y.node_id = a.node_id AND y.days = 365
  LEFT JOIN later h ON h.t = a.t AND h.node_id = a.node_id AND h.days = 182
  LEFT JOIN later p ON p.t = a.t AND p.node_id = a.node_id AND p.days = -182
),
medians AS (
  SELECT t, median(growth_next) AS median_next, median(growth_before) AS median_before FROM judged GROUP BY t
),
growth AS (
  SELECT j.*, j.growth_next > m.median_next AS outgrew, j.growth_before > m.median_before AS grew_before
  FROM judged j JOIN medians m USING (t)
  WHERE j.growth_next IS NOT NULL
),
changes AS (
  SELECT node_id, date, from_stage, to_stage,
    lead(to_stage) OVER w AS next_to, lead(date) OVER w AS next_date
  FROM transitions
  WHERE from_stage IS NOT NULL
  WINDOW w AS (PARTITION BY node_id ORDER BY date)
),
naive_nights AS (
  SELECT node_id, date,
    CASE WHEN last_commit_pushed_at < date - INTERVAL 120 DAY THEN 'fading' ELSE 'active' END AS stage
  FROM nights
),
naive_changes AS (
  SELECT node_id, date, stage, lag(stage) OVER w AS from_stage FROM naive_nights
  WINDOW w AS (PARTITION BY node_id ORDER BY date)
),
naive_flips AS (
  SELECT node_id, date, from_stage, stage AS to_stage, lead(stage) OVER w AS next_to, lead(date) OVER w AS next_date
  FROM naive_changes
  WHERE from_stage IS NOT NULL AND from_stage <> stage
  WINDOW w AS (PARTITION BY node_id ORDER BY date)
),
years AS (
  SELECT sum(date_diff('day', first, last)) / 365.25 AS project_years
  FROM (SELECT node_id, min(date) AS first, max(date) AS last FROM list_replay GROUP BY node_id)
)
SELECT 'not_revived' AS figure,
  count(*) FILTER (WHERE lifecycle_stage IN ('fading', 'dormant') AND revival_known) AS n,
  count(*) FILTER (WHERE lifecycle_stage IN ('fading', 'dormant') AND revival_known AND not_revived) AS hits,
  count(*) FILTER (WHERE naive_quiet AND revival_known) AS naive_n,
  count(*) FILTER (WHERE naive_quiet AND revival_known AND not_revived) AS naive_hits
FROM judged
UNION ALL
SELECT 'outgrew_median',
  count(*) FILTER (WHERE lifecycle_stage IN ('growing', 'launching')),
  count(*) FILTER (WHERE lifecycle_stage IN ('growing', 'launching') AND outgrew),
  count(*) FILTER (WHERE grew_before),
  count(*) FILTER (WHERE grew_before AND outgrew)
FROM growth
UNION ALL
SELECT 'flip_back',
  (SELECT count(*) FROM changes),
  (SELECT count(*) FROM changes WHERE next_to = from_stage AND next_date - date <= 56),
  (SELECT count(*) FROM naive_flips),
  (SELECT count(*) FROM naive_flips WHERE next_to = from_stage AND next_date - date <= 56)
UNION ALL
-- n: project-days replayed; hits: changes (the rate is hits / n * 365.25)
SELECT 'changes_per_project_year',
  (SELECT round(project_years * 365.25) FROM years),
  (SELECT count(*) FROM changes),
  (SELECT round(project_years * 365.25) FROM years),
  (SELECT count(*) FROM naive_flips);
