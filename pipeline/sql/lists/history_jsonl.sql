-- A list's history as JSON lines (one object a line: snapshot_date and best-of-generator's columns, as in
-- history_csv.sql), read by DuckDB itself; the figures are typed afterwards (pipeline/lists/history-input.ts), and a
-- line that is not JSON stops the read with DuckDB's message naming it.
CREATE OR REPLACE TABLE list_raw AS
SELECT * FROM read_json(${source}, format = 'newline_delimited', filename = true);
