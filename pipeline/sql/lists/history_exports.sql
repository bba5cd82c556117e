-- A list's history as a folder of best-of-generator exports, `<date>_projects.csv` (its history/ folder), read by
-- DuckDB itself: each file's date comes from its name, and columns are matched by name (early exports have fewer).
-- DuckDB keeps no rejected rows when it matches by name, nor takes types for columns some files lack, so the figures
-- are typed afterwards (pipeline/lists/history-input.ts), and one that does not parse stops the replay, named.
CREATE OR REPLACE TABLE list_raw AS
SELECT *, CAST(regexp_extract(filename, '(\d{4}-\d{2}-\d{2})_projects\.csv$', 1) AS DATE) AS snapshot_date
FROM read_csv(
  ${source},
  header = true,
  union_by_name = true,
  filename = true
);
