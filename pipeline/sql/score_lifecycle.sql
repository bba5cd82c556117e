-- score_lifecycle: each tracked repository's lifecycle stage tonight, by the rules of the methodology (the
-- lifecycle constants). Three rules keep a stage still near a threshold. Hysteresis: the current stage (its latest
-- transition before tonight) decides which threshold applies, a strict one to enter a stage and a looser one to stay.
-- Confirmation: tonight's facts give a candidate stage, and the stage changes only once the same candidate held on
-- every night for lifecycle_confirm_days days (counted in days, not nights, so irregular nights confirm alike; the
-- earlier nights' candidates are kept in lifecycle_candidates). Dwell: a change back to the stage just left waits
-- until more than lifecycle_min_dwell_days after the last change. Archiving (and
-- leaving an archive) is exempt from both: it is a fact, not noise. A finished project is neither fading nor dormant.
CREATE OR REPLACE TABLE score_lifecycle AS
WITH previous AS (
  SELECT node_id, arg_max(to_stage, date) AS stage, arg_max(from_stage, date) AS left_stage, max(date) AS since
  FROM transitions
  WHERE date < getvariable('run_date')
  GROUP BY node_id
),
earlier AS (
  -- the candidates of the nights before tonight (those still kept), newest first, and whether an archive since the
  -- last change
  SELECT
    c.node_id,
    list(c.candidate_stage ORDER BY c.date DESC) AS candidates,
    list(c.date ORDER BY c.date DESC) AS candidate_dates,
    bool_or(c.is_archived AND c.date >= p.since) AS archived_since_change
  FROM lifecycle_candidates c
  JOIN previous p USING (node_id)
  WHERE c.date < getvariable('run_date')
  GROUP BY c.node_id
),
facts AS (
  SELECT
    f.node_id,
    f.is_archived,
    f.stars,
    f.commits_30d,
    f.commits_365d,
    date_diff('day', f.created_at, getvariable('run_date')) AS age_days,
    -- the last push when the last commit is unknown (as score_components reads it: a rated list records only the
    -- push); an empty repository has no commit: counted from its creation
    date_diff('day', coalesce(f.last_commit_at, f.pushed_at, f.created_at), getvariable('run_date')) AS days_since_commit,
    f.commits_90d / greatest(f.commits_365d / 4.0, 1) AS activity,
    -- unknown when the star window is (a gap in the nights longer than snapshot_gap_max_days): never read as no gain
    s.stars_30d_delta AS stars_30d,
    s.growth_30d_pct,
    q.quality_score,
    c.is_finished,
    p.stage AS previous_stage,
    p.left_stage,
    p.since AS previous_since,
    e.candidates,
    e.candidate_dates,
    coalesce(e.archived_since_change, false) AS archived_since_change
  FROM feat_repos f
  LEFT JOIN feat_stars s USING (node_id)
  JOIN score_quality q USING (node_id)
  JOIN score_components c USING (node_id)
  LEFT JOIN previous p USING (node_id)
  LEFT JOIN earlier e USING (node_id)
),
tests AS (
  SELECT
    *,
    is_archived OR NOT is_finished AND (
      days_since_commit >= getvariable('dormant_enter_days')
      OR (previous_stage = 'dormant' AND commits_30d < getvariable('dormant_exit_commits_30d'))
    ) AS is_dormant,
    -- not growing: below growing_exit_pct; with the star window unknown, as it was (a growing or launching
    -- repository stays so, another is not growing)
    NOT is_finished
      AND coalesce(growth_30d_pct < getvariable('growing_exit_pct'), previous_stage NOT IN ('growing', 'launching'), true)
      AND CASE
      WHEN previous_stage = 'fading' THEN NOT (
        days_since_commit < getvariable('fading_exit_days')
        AND (commits_365d < getvariable('fading_min_commits_365d') OR activity >= getvariable('fading_exit_activity'))
      )
      -- the activity ratio (a quieter quarter than the year's pace) makes a repository fading only once a whole
      -- quarter passed without a commit: a quarter that still holds one is a pause, not a decline
      ELSE days_since_commit >= getvariable('fading_enter_days')
        OR (commits_365d >= getvariable('fading_min_commits_365d') AND activity < getvariable('fading_enter_activity')
          AND days_since_commit >= getvariable('fading_quiet_days'))
    END AS is_fading,
    -- launching and growing read the 30-day star window; while it is unknown the current stage holds
    age_days < getvariable('launching_max_age_days') AND coalesce(stars_30d >= CASE
      WHEN previous_stage = 'launching' THEN getvariable('launching_exit_stars_30d')
      ELSE getvariable('launching_enter_stars_30d')
    END, previous_stage = 'launching', false) AS is_launching,
    coalesce(CASE
      WHEN previous_stage = 'growing' THEN stars_30d >= getvariable('growing_exit_stars_30d')
        AND growth_30d_pct >= getvariable('growing_exit_pct')
      ELSE stars_30d >= getvariable('growing_min_stars_30d') AND growth_30d_pct >= getvariable('growing_enter_pct')
    END, previous_stage = 'growing', false) AS is_growing,
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
    is_archived,
    previous_stage,
    left_stage,
    previous_since,
    candidates,
    candidate_dates,
    archived_since_change,
    CASE
      WHEN is_dormant THEN 'dormant'
      WHEN is_fading THEN 'fading'
      WHEN is_launching THEN 'launching'
      WHEN is_growing THEN 'growing'
      WHEN is_established THEN 'established'
      ELSE 'emerging'
    END AS candidate_stage
  FROM tests
),
held AS (
  -- the first night of tonight's candidate's unbroken run: the night after the latest earlier night with another
  -- candidate (the oldest kept night when there is none; tonight when last night's differed)
  SELECT
    *,
    coalesce(
      candidate_dates[list_position(list_transform(candidates, c -> c <> candidate_stage), true) - 1],
      CASE WHEN list_position(list_transform(candidates, c -> c <> candidate_stage), true) IS NULL
        THEN candidate_dates[-1] END,
      getvariable('run_date')
    ) AS held_since
  FROM staged
),
decided AS (
  SELECT
    *,
    CASE
      WHEN previous_stage IS NULL OR candidate_stage = previous_stage THEN candidate_stage
      WHEN is_archived OR archived_since_change THEN candidate_stage
      -- the same new stage on every night of the last lifecycle_confirm_days days, tonight included
      WHEN date_diff('day', held_since, getvariable('run_date')) < getvariable('lifecycle_confirm_days')
        THEN previous_stage
      WHEN candidate_stage = left_stage
        AND date_diff('day', previous_since, getvariable('run_date')) <= getvariable('lifecycle_min_dwell_days')
        THEN previous_stage
      ELSE candidate_stage
    END AS lifecycle_stage
  FROM held
)
SELECT
  node_id,
  lifecycle_stage,
  previous_stage,
  CASE WHEN lifecycle_stage = previous_stage THEN previous_since ELSE getvariable('run_date') END AS lifecycle_since,
  candidate_stage,
  is_archived
FROM decided;
