-- After a list's last night (and list_replay.sql): feat_repos, score_components, score_quality and feat_stars become
-- tables of that night's rows (the nightly's tables as that night left them, which list-warehouse.ts builds on), and
-- the rows of every night are dropped.
CREATE TABLE list_last_feat_repos AS SELECT * FROM feat_repos;
CREATE TABLE list_last_components AS SELECT * FROM score_components;
CREATE TABLE list_last_stars AS SELECT * FROM feat_stars;
CREATE TABLE list_last_quality AS SELECT * FROM score_quality;
DROP VIEW feat_repos;
DROP VIEW score_components;
DROP VIEW feat_stars;
DROP VIEW score_quality;
DROP TABLE list_feat_repos;
DROP TABLE list_components;
DROP TABLE list_stars;
DROP TABLE list_quality;
DROP TABLE list_stages;
ALTER TABLE list_last_feat_repos RENAME TO feat_repos;
ALTER TABLE list_last_components RENAME TO score_components;
ALTER TABLE list_last_stars RENAME TO feat_stars;
ALTER TABLE list_last_quality RENAME TO score_quality;
