-- score_lifecycle: each tracked repository's lifecycle stage tonight, by the rules of the methodology (the
-- lifecycle constants). Hysteresis: a repository's current stage (its latest transition before tonight) decides
-- which threshold applies, a strict one to enter a stage and a looser one to stay, so a project near a threshold
-- does not flap. A finished project (score_components.is_finished) is neither fading nor dormant.
CREATE OR REPLACE TABLE score_lifecycle AS
WITH previous AS (
  SELECT node_id, arg_max(to_stage, date) AS stage, max(date) AS since
  FROM transitions
  WHERE date < getvariable('run_date')
  GROUP BY node_id
),
facts AS (
  SELECT
    f.node_id,
    f.is_archived,
    f.stars,
    f.commits_30d,
    f.commits_365d,
    date_diff('day', f.created_at, getvariable('run_date')) AS age_days,
    -- an empty repository has no commit: counted from its creation
    date_diff('day', coalesce(f.last_commit_at, f.created_at), getvariable('run_date')) AS days_since_commit,
    f.commits_90d / greatest(f.commits_365d / 4.0, 1) AS activity,
    coalesce(s.stars_30d_delta, 0) AS stars_30d,
    coalesce(s.growth_30d_pct, 0) AS growth_30d_pct,
    q.quality_score,
    c.is_finished,
    p.stage AS previous_stage,
    p.since AS previous_since
  FROM feat_repos f
  LEFT JOIN feat_stars s USING (node_id)
  JOIN score_quality q USING (node_id)
  JOIN score_components c USING (node_id)
  LEFT JOIN previous p USING (node_id)
),
tests AS (
  SELECT
    *,
    NOT is_finished AND (
      is_archived
      OR days_since_commit >= getvariable('dormant_enter_days')
      OR (previous_stage = 'dormant' AND commits_30d < getvariable('dormant_exit_commits_30d'))
    ) AS is_dormant,
    NOT is_finished AND growth_30d_pct < getvariable('growing_exit_pct') AND CASE
      WHEN previous_stage = 'fading' THEN NOT (
        days_since_commit < getvariable('fading_exit_days')
        AND (commits_365d < getvariable('fading_min_commits_365d') OR activity >= getvariable('fading_exit_activity'))
      )
      ELSE days_since_commit >= getvariable('fading_enter_days')
        OR (commits_365d >= getvariable('fading_min_commits_365d') AND activity < getvariable('fading_enter_activity'))
    END AS is_fading,
    age_days < getvariable('launching_max_age_days') AND stars_30d >= CASE
      WHEN previous_stage = 'launching' THEN getvariable('launching_exit_stars_30d')
      ELSE getvariable('launching_enter_stars_30d')
    END AS is_launching,
    stars_30d >= getvariable('growing_min_stars_30d') AND growth_30d_pct >= CASE
      WHEN previous_stage = 'growing' THEN getvariable('growing_exit_pct')
      ELSE getvariable('growing_enter_pct')
    END AS is_growing,
    age_days >= getvariable('established_min_age_days') AND (
      quality_score >= getvariable('tier_established_min')
      OR stars >= CASE
        WHEN previous_stage = 'established' THEN getvariable('established_exit_stars')
        ELSE getvariable('established_min_stars')
      END
    ) AS is_established
  FROM facts
),
staged AS (
  SELECT
    node_id,
    previous_stage,
    previous_since,
    CASE
      WHEN is_dormant THEN 'dormant'
      WHEN is_fading THEN 'fading'
      WHEN is_launching THEN 'launching'
      WHEN is_growing THEN 'growing'
      WHEN is_established THEN 'established'
      ELSE 'emerging'
    END AS lifecycle_stage
  FROM tests
)
SELECT
  node_id,
  lifecycle_stage,
  previous_stage,
  CASE WHEN lifecycle_stage = previous_stage THEN previous_since ELSE getvariable('run_date') END AS lifecycle_since
FROM staged;
