-- What every night of a list's replay reads, built in one pass before the first night instead of once a night:
-- each date's rate input (list_rate_docs: the JSON document rate/feat_repos.sql reads, from list_rate_rows, rate's
-- own best-of mapping) and every date's star counts as raw_github_repos rows (feat_stars.sql reads only the nights
-- up to tonight's run_date, so later rows already there change nothing).
CREATE OR REPLACE TABLE list_rate_docs AS
SELECT snapshot_date, to_json(list(rate_row ORDER BY project))::VARCHAR AS doc
FROM list_rate_rows
GROUP BY snapshot_date;
INSERT INTO raw_github_repos
SELECT snapshot_date, 'line:' || project, name_then, CAST(round(observed_stars) AS INTEGER)
FROM list_history
WHERE observed_stars IS NOT NULL;
-- for classifying every distinct input once (list_classify_once.sql): as one rate input, each project's first row
-- of each distinct text it had (its name, packages, release tag...: everything a classification can read is text)
CREATE OR REPLACE TEMP TABLE rate_json AS
SELECT to_json(coalesce(list(rate_row ORDER BY snapshot_date, project), []))::VARCHAR AS doc
FROM (
  SELECT rate_row, snapshot_date, project
  FROM list_rate_rows
  QUALIFY row_number() OVER (PARTITION BY project, texts ORDER BY snapshot_date) = 1
);
