-- feat_classification: one domain, subcategory and stack layer per repository, with the rule that decided.
-- Rules come from data/taxonomy.json (${taxonomy_file}). A topic listed by many domains carries little
-- information, so each matching topic weighs 1 / (number of domains listing it); the heaviest domain wins,
-- ties go to the domain listed first (narrow domains are listed before broad ones in the guide's spirit).
CREATE OR REPLACE TABLE feat_classification AS
WITH domains AS (
  SELECT d.slug AS domain, d.stack_layer, ordinality AS domain_rank, d.topics, d.subcategories
  FROM read_json(${taxonomy_file}) t, unnest(t.domains) WITH ORDINALITY AS u(d)
),
domain_topics AS (
  SELECT domain, unnest(topics) AS topic FROM domains
),
topic_weight AS (
  SELECT topic, 1.0 / count(DISTINCT domain) AS weight FROM domain_topics GROUP BY topic
),
repo_topics AS (
  SELECT node_id, unnest(topics) AS topic FROM feat_repos
),
topic_votes AS (
  SELECT r.node_id, dt.domain, sum(w.weight) AS votes, list(r.topic ORDER BY r.topic) AS matched
  FROM repo_topics r
  JOIN domain_topics dt USING (topic)
  JOIN topic_weight w USING (topic)
  GROUP BY r.node_id, dt.domain
),
repo_words AS (
  -- the words of name and description, so signals match by equality (a hash join), never a regex per pair
  SELECT f.node_id, w.word, w.pos
  FROM feat_repos f
  LEFT JOIN topic_votes v USING (node_id)
  CROSS JOIN unnest(regexp_split_to_array(lower(f.name || ' ' || coalesce(f.description, '')), '[^a-z0-9.]+'))
    WITH ORDINALITY AS w(word, pos)
  WHERE v.node_id IS NULL AND w.word <> ''
),
phrases AS (
  -- one-, two- and three-word phrases written the way topics are: "vector database" -> vector-database
  SELECT node_id, word AS phrase FROM repo_words
  UNION ALL
  SELECT a.node_id, a.word || '-' || b.word
  FROM repo_words a
  JOIN repo_words b ON b.node_id = a.node_id AND b.pos = a.pos + 1
  UNION ALL
  SELECT a.node_id, a.word || '-' || b.word || '-' || c.word
  FROM repo_words a
  JOIN repo_words b ON b.node_id = a.node_id AND b.pos = a.pos + 1
  JOIN repo_words c ON c.node_id = a.node_id AND c.pos = a.pos + 2
),
keyword_votes AS (
  -- fallback for repositories whose topics say nothing: a domain signal written out in name or description
  SELECT p.node_id, dt.domain, count(DISTINCT dt.topic) * 0.5 AS votes, list_sort(list(DISTINCT dt.topic)) AS matched
  FROM phrases p
  JOIN domain_topics dt ON dt.topic = p.phrase
  GROUP BY p.node_id, dt.domain
),
votes AS (
  SELECT node_id, domain, votes, 'topics: ' || array_to_string(matched, ', ') AS rule FROM topic_votes
  UNION ALL
  SELECT node_id, domain, votes, 'keywords: ' || array_to_string(matched, ', ') AS rule FROM keyword_votes
),
best AS (
  SELECT v.node_id, v.domain, v.rule, d.stack_layer, d.subcategories
  FROM votes v
  JOIN domains d USING (domain)
  QUALIFY row_number() OVER (PARTITION BY v.node_id ORDER BY v.votes DESC, d.domain_rank) = 1
),
subcategory AS (
  SELECT b.node_id, s.name AS subcategory
  FROM best b, unnest(b.subcategories) WITH ORDINALITY AS u(s)
  JOIN feat_repos f ON f.node_id = b.node_id
  WHERE len(list_intersect(f.topics, s.topics)) > 0
  QUALIFY row_number() OVER (PARTITION BY b.node_id ORDER BY ordinality) = 1
)
SELECT
  f.node_id,
  coalesce(b.domain, 'generative-ai') AS domain,
  s.subcategory,
  coalesce(b.stack_layer, 'interface') AS stack_layer,
  coalesce(b.rule, 'fallback: no domain signal') AS rule
FROM feat_repos f
LEFT JOIN best b USING (node_id)
LEFT JOIN subcategory s USING (node_id);
