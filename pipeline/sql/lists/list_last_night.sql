-- After a list's last night: feat_repos and score_components become tables of that night's rows (the nightly's
-- tables as that night left them, which list-warehouse.ts builds on), and the rows of every night are dropped.
CREATE TABLE list_last_feat_repos AS SELECT * FROM feat_repos;
CREATE TABLE list_last_components AS SELECT * FROM score_components;
DROP VIEW feat_repos;
DROP VIEW score_components;
DROP TABLE list_feat_repos;
DROP TABLE list_components;
ALTER TABLE list_last_feat_repos RENAME TO feat_repos;
ALTER TABLE list_last_components RENAME TO score_components;
