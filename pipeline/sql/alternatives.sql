-- alternatives: for each tracked repository, up to alternatives_max other tracked projects that do the same job —
-- those of its subcategory first, then those of its domain sharing a distinctive topic or dependency — each group by
-- quality score, then stars, then name. Archived projects and forks are never suggested, nor the project itself
-- (by name: a rating input may list a repository twice). Bounded at 220,000 repositories: only the best few
-- candidates of each subcategory and of each (domain, term) are read, never every pair of a domain.
CREATE OR REPLACE TABLE alternatives AS
WITH pool AS (
  SELECT
    q.node_id, q.full_name, q.slug, q.domain, q.subcategory, q.quality_score, q.quality_tier, q.stars,
    coalesce(f.is_archived, false) OR coalesce(f.is_fork, false) AS unsuggested,
    list_distinct(list_concat(
      list_transform(coalesce(f.topics, []::VARCHAR[]), t -> 'topic:' || lower(t)),
      list_transform(coalesce(f.dependencies, []::VARCHAR[]), d -> 'dependency:' || lower(d))
    )) AS terms
  FROM score_quality q
  JOIN feat_repos f USING (node_id)
),
candidates AS (
  SELECT * FROM pool WHERE NOT unsuggested
),
subcategory_best AS (
  -- the best alternatives_max + 1 of a subcategory hold the best alternatives_max of each of its members
  SELECT * FROM candidates
  WHERE coalesce(subcategory, '') <> ''
  QUALIFY row_number() OVER (PARTITION BY subcategory ORDER BY quality_score DESC, stars DESC, full_name)
    <= getvariable('alternatives_max') + 1
),
terms AS (
  SELECT node_id, domain, unnest(terms) AS term FROM pool
),
distinctive AS (
  -- a term held by at least two of a domain's projects and by at most alternatives_term_share_max of them
  SELECT t.domain, t.term
  FROM terms t
  JOIN (SELECT domain, count(*) AS projects FROM pool GROUP BY domain) d USING (domain)
  GROUP BY t.domain, t.term, d.projects
  HAVING count(*) >= 2 AND count(*) <= d.projects * getvariable('alternatives_term_share_max')
),
term_best AS (
  SELECT t.domain, t.term, c.node_id
  FROM terms t
  JOIN distinctive USING (domain, term)
  JOIN candidates c USING (node_id)
  QUALIFY row_number() OVER (PARTITION BY t.domain, t.term ORDER BY c.quality_score DESC, c.stars DESC, c.full_name)
    <= getvariable('alternatives_term_candidates')
),
pairs AS (
  SELECT p.node_id, s.node_id AS other FROM pool p JOIN subcategory_best s USING (subcategory)
  UNION
  SELECT t.node_id, b.node_id AS other FROM terms t JOIN term_best b USING (domain, term)
),
ranked AS (
  SELECT
    p.node_id,
    o.full_name, o.slug, o.quality_score, o.quality_tier, o.stars,
    CASE WHEN o.subcategory = s.subcategory THEN 'same_subcategory' ELSE 'shared_topics_or_dependencies' END AS match
  FROM pairs p
  JOIN pool s ON s.node_id = p.node_id
  JOIN pool o ON o.node_id = p.other
  WHERE lower(o.full_name) <> lower(s.full_name)
  QUALIFY row_number() OVER (
    PARTITION BY p.node_id
    ORDER BY match = 'same_subcategory' DESC, o.quality_score DESC, o.stars DESC, o.full_name, o.node_id
  ) <= getvariable('alternatives_max')
)
SELECT
  node_id,
  list({
    full_name: full_name, slug: slug, quality_score: quality_score, quality_tier: quality_tier, stars: stars,
    match: match
  } ORDER BY match = 'same_subcategory' DESC, quality_score DESC, stars DESC, full_name) AS alternatives
FROM ranked
GROUP BY node_id
ORDER BY node_id;
