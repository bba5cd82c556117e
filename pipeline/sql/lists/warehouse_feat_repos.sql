-- The last night's feat_repos of a replayed list as the published project record must have it: figures the list
-- did not record stay unknown (NULL) through the score, the lifecycle and the explanations (which name them as
-- unknown), but the project record (schemas/project-detail.ts) has no unknown for these yet, so they are written as
-- 0 (false for the fork flag, which a list never records) after scoring, for the publish only. Until the record takes
-- null for them, a page shows 0 where its score's explanation says unknown.
UPDATE feat_repos SET
  is_fork = coalesce(is_fork, false),
  forks = coalesce(forks, 0),
  watchers = coalesce(watchers, 0),
  open_issues = coalesce(open_issues, 0),
  closed_issues = coalesce(closed_issues, 0),
  commits_30d = coalesce(commits_30d, 0),
  commits_90d = coalesce(commits_90d, 0),
  dependents = coalesce(dependents, 0);
