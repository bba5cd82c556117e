-- repo_names (kept table, DDL in kept/repo_names.sql): folds one night's raw_github_repos rows
-- (getvariable('fold_date')) into the names of each repository. Folding a night again gives the same table.
INSERT INTO repo_names
SELECT
  t.node_id,
  t.full_name,
  getvariable('fold_date'),
  getvariable('fold_date'),
  -- a new stint when the repository had another name on its previous night (NULL: the stint goes on)
  CASE WHEN p.previous_name IS NULL OR p.previous_name <> t.full_name THEN getvariable('fold_date') END
FROM raw_github_repos t
LEFT JOIN (
  SELECT node_id, arg_max(full_name, last_seen) AS previous_name
  FROM repo_names
  WHERE last_seen < getvariable('fold_date')
  GROUP BY node_id
) p USING (node_id)
WHERE t.run_date = getvariable('fold_date')
ON CONFLICT (node_id, full_name) DO UPDATE SET
  first_seen = least(repo_names.first_seen, excluded.first_seen),
  last_seen = greatest(repo_names.last_seen, excluded.last_seen),
  stint_start = coalesce(excluded.stint_start, repo_names.stint_start);
