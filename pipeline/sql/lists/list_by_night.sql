-- After feat_stars.sql's runs over every night of a list (list_stars_kept.sql): the star counts back in
-- raw_github_repos, and feat_repos, score_components, score_quality and feat_stars as views of tonight's rows
-- (getvariable('run_date')): a night reads them as the nightly reads its tables, without building them again.
DROP VIEW raw_github_repos;
ALTER TABLE list_star_counts RENAME TO raw_github_repos;
CREATE OR REPLACE VIEW feat_repos AS
SELECT * FROM list_feat_repos WHERE run_date = getvariable('run_date');
CREATE VIEW score_components AS
SELECT * EXCLUDE (night) FROM list_components WHERE night = getvariable('run_date');
CREATE VIEW feat_stars AS
SELECT * EXCLUDE (night) FROM list_stars WHERE night = getvariable('run_date');
CREATE VIEW score_quality AS
SELECT * EXCLUDE (night) REPLACE (getvariable('run_date') AS run_date) FROM list_quality
WHERE night = getvariable('run_date');
