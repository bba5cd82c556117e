-- What one night of a list's replay leaves: each listed project's lifecycle stage tonight, from the nightly's own
-- score_lifecycle, appended to list_stages (list_replay.sql adds each night's score, tier and star trend after the
-- last night, from the rows score_quality.sql and feat_stars.sql gave that night).
INSERT INTO list_stages
SELECT node_id, getvariable('run_date'), lifecycle_stage
FROM score_lifecycle;
