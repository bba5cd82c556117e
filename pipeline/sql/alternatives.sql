-- alternatives: for each tracked repository, one row for each of up to alternatives_max other tracked projects that do the same job —
-- those of its subcategory first, then those of its domain sharing a distinctive topic or dependency — each group by
-- quality score, then stars, then name. Archived projects and forks are never suggested, nor the project itself
-- (by name: a rating input may list a repository twice). Bounded at 220,000 repositories within the warehouse's
-- memory: only the best few candidates of each subcategory and of each (domain, term) are read, never every pair of
-- a domain; shared terms are looked up only for the projects their subcategory leaves short; and the pairs are
-- ranked as integers (a project's place in one global order, terms as hashes), names joined to the winners only.
CREATE OR REPLACE TABLE alternatives AS
WITH pool AS MATERIALIZED (
  SELECT
    row_number() OVER (ORDER BY q.quality_score DESC, q.stars DESC, q.full_name, q.node_id)::INTEGER AS place,
    q.node_id, q.full_name, q.slug, q.domain, nullif(q.subcategory, '') AS subcategory, q.quality_score,
    q.quality_tier, q.stars,
    hash(lower(q.full_name)) AS name_key,
    coalesce(f.is_archived, false) OR coalesce(f.is_fork, false) AS unsuggested,
    list_distinct(list_concat(
      list_transform(coalesce(f.topics, []::VARCHAR[]), t -> hash(q.domain, 'topic:' || lower(t))),
      list_transform(coalesce(f.dependencies, []::VARCHAR[]), d -> hash(q.domain, 'dependency:' || lower(d)))
    )) AS terms
  FROM score_quality q
  JOIN feat_repos f USING (node_id)
),
subcategory_best AS (
  -- the best alternatives_max + 1 of a subcategory hold the best alternatives_max of each of its members
  SELECT place, subcategory, name_key FROM pool
  WHERE NOT unsuggested AND subcategory IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY subcategory ORDER BY place) <= getvariable('alternatives_max') + 1
),
same_subcategory AS MATERIALIZED (
  SELECT p.place, s.place AS other
  FROM pool p
  JOIN subcategory_best s USING (subcategory)
  WHERE s.name_key <> p.name_key
),
short AS (
  -- the projects whose subcategory gives fewer than alternatives_max: only they read shared terms
  SELECT place FROM pool
  EXCEPT
  SELECT place FROM same_subcategory GROUP BY place HAVING count(*) >= getvariable('alternatives_max')
),
terms AS MATERIALIZED (
  -- each term of a project as hash(domain, term): a term links projects of one domain only
  SELECT place, domain, unnest(terms) AS term FROM pool
),
distinctive AS (
  -- a term held by at least two of a domain's projects and by at most alternatives_term_share_max of them
  SELECT t.term
  FROM (SELECT domain, term, count(*) AS holders FROM terms GROUP BY domain, term) t
  JOIN (SELECT domain, count(*) AS projects FROM pool GROUP BY domain) d USING (domain)
  WHERE t.holders >= 2 AND t.holders <= d.projects * getvariable('alternatives_term_share_max')
),
term_best AS (
  SELECT t.term, t.place
  FROM terms t
  SEMI JOIN distinctive USING (term)
  SEMI JOIN (SELECT place FROM pool WHERE NOT unsuggested) c USING (place)
  QUALIFY row_number() OVER (PARTITION BY t.term ORDER BY t.place) <= getvariable('alternatives_term_candidates')
),
pairs AS (
  SELECT place, other FROM same_subcategory
  UNION
  SELECT t.place, b.place AS other
  FROM terms t
  SEMI JOIN short USING (place)
  JOIN term_best b USING (term)
  WHERE b.place <> t.place
),
best AS (
  -- per project its alternatives_max best pairs, as integers led by the group (0: same subcategory, 1: a shared
  -- term) then the other's place: min(x, n) keeps n values per project, where a window would sort every pair
  SELECT
    p.place,
    min((CASE WHEN coalesce(o.subcategory = s.subcategory, false) THEN 0 ELSE 1 END)::BIGINT << 32 | p.other,
      getvariable('alternatives_max')) AS keys
  FROM pairs p
  JOIN pool s ON s.place = p.place
  JOIN pool o ON o.place = p.other
  WHERE o.name_key <> s.name_key
  GROUP BY p.place
),
ranked AS (
  SELECT place, position, (key >> 32) = 0 AS same, (key & 4294967295)::INTEGER AS other
  FROM (SELECT place, unnest(keys) AS key, generate_subscripts(keys, 1) AS position FROM best)
)
-- one row per alternative (a list per project would hold them all in memory at once; project_detail.sql lists each
-- pass's own)
SELECT
  s.node_id,
  r.position::INTEGER AS position,
  o.full_name,
  o.slug,
  o.quality_score,
  o.quality_tier,
  o.stars,
  CASE WHEN r.same THEN 'same_subcategory' ELSE 'shared_topics_or_dependencies' END AS match
FROM ranked r
JOIN pool s ON s.place = r.place
JOIN pool o ON o.place = r.other;
