-- lifecycle_candidates' retention: what score_lifecycle.sql can still read of the earlier nights' candidates, run
-- after each night's are in (score.ts) and on a warehouse restored or rebuilt (state-snapshot.ts, history.ts), so
-- every way to the warehouse keeps the same rows. score_lifecycle reads, of the nights before the run date within
-- snapshot_days, each repository's candidates back to the start of tonight's candidate's run (it needs the run to
-- reach lifecycle_confirm_days days back) and whether one since its last change was archived. So a night older than
-- candidate_nights keeps only each repository's latest lifecycle_confirm_days + 1 rows (three daily nights, or
-- nights a week apart, reach that far) and its latest lifecycle_confirm_days + 1 archived ones (tonight's included,
-- so a rerun of tonight reads what the first run read); the last candidate_nights nights stay whole, so a re-score of
-- any of them reads the same too. Nights older than snapshot_days leave (the history keeps every night). At 220,000
-- repositories this keeps about candidate_nights nights' rows instead of 90 nights' 17.8 million.
DELETE FROM lifecycle_candidates WHERE rowid IN (
  SELECT id FROM (
    SELECT
      rowid AS id,
      date,
      is_archived,
      row_number() OVER (PARTITION BY node_id ORDER BY date DESC) AS latest,
      row_number() OVER (PARTITION BY node_id, is_archived ORDER BY date DESC) AS latest_alike
    FROM lifecycle_candidates
  )
  WHERE date <= getvariable('run_date') - getvariable('snapshot_days')
    OR date <= getvariable('run_date') - getvariable('candidate_nights')
      AND latest > getvariable('lifecycle_confirm_days') + 1
      AND NOT (is_archived AND latest_alike <= getvariable('lifecycle_confirm_days') + 1)
);
