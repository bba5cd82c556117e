-- feat_classification: one domain, subcategory and stack layer per repository of classify_input, and the rule that
-- decided. Signals come from data/taxonomy.json (${taxonomy_file}); docs/classification.md explains the scoring.
-- Everything matches by equality (hash joins on normalised phrases and package keys), never a regex per pair.

-- Text as the rules compare it: lower case, a version glued to a word dropped (stylegan3 -> stylegan), plurals
-- folded (agents -> agent, libraries -> library; not -ss, -us, -is). One regex pass per text, not per word.
CREATE OR REPLACE TEMP MACRO classify_normalize(text) AS regexp_replace(
  regexp_replace(
    regexp_replace(lower(text), '([a-z])[0-9]+\b', '\1', 'g'),
    '([a-z]{2})ies\b', '\1y', 'g'
  ),
  '([a-z]{2}[a-hj-rtv-z])s\b', '\1', 'g'
);
-- The words of a normalised text. A separator at either end leaves an empty word; phrases made with it match no
-- signal, which is cheaper than trimming every text first.
CREATE OR REPLACE TEMP MACRO classify_words(text) AS string_split_regex(classify_normalize(text), '[^a-z0-9+]+');
-- One-, two- and three-word phrases of a word list, and the whole list when it is a longer topic. Pass a column:
-- a macro argument is inlined, so an expression here would be evaluated once per phrase.
CREATE OR REPLACE TEMP MACRO classify_phrases(ws, whole) AS list_concat(
  ws,
  list_transform(range(1, len(ws)), lambda i: ws[i] || ' ' || ws[i + 1]),
  list_transform(range(1, len(ws) - 1), lambda i: ws[i] || ' ' || ws[i + 1] || ' ' || ws[i + 2]),
  CASE WHEN whole AND len(ws) > 3 THEN [array_to_string(ws, ' ')] ELSE [] END
);
-- The keys a package name answers to, the way taxonomy package patterns are written: the name itself, its npm
-- scope (@scope/*), every prefix (mcp-server-*) and suffix (*-mcp) at a '-', '_' or '.' boundary.
CREATE OR REPLACE TEMP MACRO classify_package_keys(pkg, parts) AS list_concat(
  [lower(pkg)],
  CASE WHEN starts_with(pkg, '@') AND contains(pkg, '/') THEN [lower(split_part(pkg, '/', 1)) || '/*'] ELSE [] END,
  list_transform(range(1, len(parts)), lambda i: array_to_string(parts[1:i], '-') || '-*'),
  list_transform(range(1, len(parts)), lambda i: '*-' || array_to_string(parts[i + 1:], '-'))
);

CREATE OR REPLACE TABLE feat_classification AS
WITH taxonomy AS (
  SELECT * FROM read_json(${taxonomy_file}, maximum_object_size = 16777216)
),
domains AS (
  SELECT d.slug AS domain, d.stack_layer, d.priority AS domain_rank, d.requires AS requires, d.identity AS identity, d
  FROM taxonomy t, unnest(t.domains) AS u(d)
),
raw_signals AS (
  -- every phrase of the taxonomy: what it votes for and how much; an explicit list wins over the plain topic
  -- list of the same domain (list_rank orders them; for a subcategory it is its place in the domain's list)
  SELECT 'domain' AS target, domain, NULL AS subcategory, NULL AS layer, 0 AS list_rank, -2.0 AS weight,
    unnest(d.negative) AS signal
  FROM domains
  UNION ALL SELECT 'domain', domain, NULL, NULL, 1, 3.0, unnest(d.strong) FROM domains
  UNION ALL SELECT 'domain', domain, NULL, NULL, 2, 2.0, unnest(d.keywords) FROM domains
  UNION ALL SELECT 'domain', domain, NULL, NULL, 3, 1.0, unnest(d.weak) FROM domains
  UNION ALL SELECT 'domain', domain, NULL, NULL, 4, 2.0, unnest(d.topics) FROM domains
  -- words one of which a domain with a `requires` list needs to be chosen (see eligible below); they weigh nothing
  UNION ALL SELECT 'requires', domain, NULL, NULL, 0, 0.0, unnest(requires) FROM domains
  UNION ALL
  SELECT 'subcategory', domain, s.name, s.layer, ordinality, 1.0, unnest(s.signals)
  FROM domains, unnest(d.subcategories) WITH ORDINALITY AS u(s)
  UNION ALL SELECT 'layer', NULL, NULL, l.slug, 0, 4.5, unnest(l.strong) FROM taxonomy t, unnest(t.layers) AS u(l)
  UNION ALL SELECT 'layer', NULL, NULL, l.slug, 0, 2.0, unnest(l.keywords) FROM taxonomy t, unnest(t.layers) AS u(l)
  UNION ALL SELECT 'layer', NULL, NULL, l.slug, 0, 1.0, unnest(l.weak) FROM taxonomy t, unnest(t.layers) AS u(l)
),
generic AS (
  -- words (and a few phrases) every field uses: they add their weight to a domain but never decide one
  SELECT DISTINCT array_to_string(classify_words(g), ' ') AS phrase FROM taxonomy t, unnest(t.generic) AS u(g)
),
listed AS (
  SELECT target, domain, subcategory, layer, array_to_string(classify_words(signal), ' ') AS phrase,
    arg_min(weight, list_rank) AS weight, min(list_rank) AS list_rank, arg_min(signal, list_rank) AS written
  FROM raw_signals
  GROUP BY target, domain, subcategory, layer, phrase
),
signals AS MATERIALIZED (
  -- what a domain phrase can do alone (decides): a 'phrase' of the field decides by itself — a phrase of two words
  -- or more of the strong, keyword or topic lists, or a single term listed as strong ("ocr", "nerf", "mcp"); a
  -- 'word' (one word of the keyword or topic lists) decides only beside a second, different word of the same domain;
  -- weak and negative phrases and the generic ones never decide
  SELECT l.*,
    CASE
      WHEN l.target <> 'domain' OR l.weight <= 0 OR l.list_rank = 3 OR g.phrase IS NOT NULL THEN NULL
      WHEN contains(l.phrase, ' ') OR l.list_rank = 1 THEN 'phrase'
      ELSE 'word'
    END AS decides
  FROM listed l
  LEFT JOIN generic g USING (phrase)
),
signal_phrases AS MATERIALIZED (
  -- each distinct phrase once: a repository's phrase is looked up once, whatever number of rules it feeds
  SELECT row_number() OVER (ORDER BY phrase) AS phrase_id, phrase FROM (SELECT DISTINCT phrase FROM signals)
),
phrase_signals AS MATERIALIZED (
  SELECT p.phrase_id, s.* FROM signals s JOIN signal_phrases p USING (phrase)
),
repos AS MATERIALIZED (
  -- a small integer per repository keeps the joins and groupings below cheap
  SELECT row_number() OVER () AS rid, * FROM classify_input
),
source_weights AS (
  -- how much a phrase counts by where it was found, for the domain, the subcategory and the stack layer. The last
  -- two say what the repository itself is: the description's head outweighs its tail ("X using Y"), a topic counts
  -- half for the subcategory (owners tag what a project touches: one stray topic must not pick it) and not at all
  -- for the layer
  SELECT * FROM (VALUES ('topic', 1.0, 0.5, 0.0), ('name', 1.5, 1.5, 1.0), ('description', 1.0, 1.0, 1.0),
    ('description_tail', 0.5, 0.5, 0.5), ('owner', 0.5, 0.5, 0.0)) AS s(source, factor, subcategory_factor, layer_factor)
),
described AS (
  -- a description's head is what the repository is; after "that", "which", "using", "powered by", "based on",
  -- "built on", "on top of" or "backed by" comes what it does or uses
  SELECT rid, description, regexp_extract(description,
    '(?i)^(.*?)\s+(?:that|which|using|powered by|based on|built on|on top of|backed by)\s', 1) AS head
  FROM (
    -- a link is an address, not a description: ".../pdf/1908.07442.pdf" says nothing about documents
    SELECT rid, regexp_replace(description, '(?:https?://|www\.)\S*', ' ', 'g') AS description
    FROM repos
    WHERE description IS NOT NULL
  )
),
written AS (
  SELECT rid, 'name' AS source, unnest([name, pypi_package, npm_package]) AS text FROM repos
  UNION ALL SELECT rid, 'description', CASE WHEN head = '' THEN description ELSE head END FROM described
  UNION ALL SELECT rid, 'description_tail', substr(description, length(head) + 2) FROM described WHERE head <> ''
),
texts AS (
  -- each text once as written and once with camelCase split (LlamaIndex -> llama index); the split text only
  -- contributes phrases of two words or more, so a keyword is never found inside a longer word (TensorBoard is
  -- not "tensor", ArcGIS not "gis")
  SELECT rid, source, text, false AS split FROM written WHERE text IS NOT NULL
  UNION ALL
  SELECT rid, source, regexp_replace(text, '([a-z])([A-Z])', '\1 \2', 'g'), true
  FROM written
  WHERE regexp_matches(text, '[a-z][A-Z]')
),
repo_terms AS (
  -- topics and owners repeat across repositories, so their phrases are matched once per distinct value
  SELECT rid, 'topic' AS source, unnest(topics) AS term FROM repos
  UNION ALL
  SELECT rid, 'owner', owner FROM repos
),
terms AS (
  SELECT DISTINCT source, term FROM repo_terms WHERE term IS NOT NULL
),
term_hits AS (
  SELECT t.source, t.term, s.phrase_id
  FROM (
    SELECT source, term, split, unnest(classify_phrases(ws, source = 'topic')) AS phrase
    FROM (
      SELECT source, term, false AS split, classify_words(term) AS ws FROM terms
      UNION ALL
      SELECT source, term, true, classify_words(regexp_replace(term, '([a-z])([A-Z])', '\1 \2', 'g'))
      FROM terms
      WHERE regexp_matches(term, '[a-z][A-Z]')
    )
  ) t
  JOIN signal_phrases s USING (phrase)
  WHERE NOT t.split OR contains(t.phrase, ' ')
),
hits AS MATERIALIZED (
  -- every phrase of every repository that is a signal; all that follows works on this
  SELECT p.rid, p.source, NULL AS label, s.phrase_id
  FROM (
    SELECT rid, source, split, unnest(classify_phrases(ws, false)) AS phrase
    FROM (SELECT rid, source, split, classify_words(text) AS ws FROM texts)
  ) p
  JOIN signal_phrases s USING (phrase)
  WHERE NOT p.split OR contains(p.phrase, ' ')
  UNION ALL
  SELECT r.rid, r.source, CASE WHEN r.source = 'topic' THEN r.term END, h.phrase_id
  FROM repo_terms r
  JOIN term_hits h USING (source, term)
),
package_keys AS (
  SELECT rid, kind, package, unnest(classify_package_keys(package, string_split(
    replace(replace(lower(CASE WHEN starts_with(package, '@') THEN split_part(package, '/', 2) ELSE package END), '_', '-'), '.', '-'),
    '-'
  ))) AS package_key
  FROM (
    SELECT rid, 'package' AS kind, unnest([pypi_package, npm_package]) AS package FROM repos
    UNION ALL
    SELECT rid, 'dependency', unnest(dependencies) FROM repos
    UNION ALL
    -- the repository's own name read as a package name: a repository called *-mcp-server or comfyui-* is what the
    -- package of that name would be
    SELECT rid, 'repository', name FROM repos
  )
  WHERE package IS NOT NULL
),
package_signals AS (
  SELECT 'package' AS kind, domain, lower(unnest(d.packages)) AS package_key, 4.0 AS weight FROM domains
  UNION ALL
  SELECT 'repository', domain, lower(unnest(d.packages)), 4.0 FROM domains
  UNION ALL
  SELECT 'dependency', domain, lower(unnest(d.dependencies)), 2.0 FROM domains
),
evidence AS MATERIALIZED (
  -- what speaks for each domain: a phrase counts once per source (a topic, the name, the description), whichever
  -- topic carried it; a package or dependency once
  SELECT h.rid, s.domain, h.source, h.phrase_id, min(h.label) AS label, any_value(s.weight * w.factor) AS weight,
    any_value(s.decides) AS decides, any_value(s.written) AS written
  FROM hits h
  JOIN phrase_signals s ON s.phrase_id = h.phrase_id AND s.target = 'domain'
  JOIN source_weights w USING (source)
  GROUP BY h.rid, s.domain, h.source, h.phrase_id
  UNION ALL
  SELECT DISTINCT k.rid, s.domain, k.kind, NULL, k.package, s.weight, 'phrase', k.package
  FROM package_keys k
  JOIN package_signals s USING (kind, package_key)
),
domain_scores AS (
  -- stated: the weight of what the repository says it is (name, description, packages), not of its topics
  SELECT rid, domain, sum(weight) AS score, coalesce(sum(weight) FILTER (WHERE source <> 'topic'), 0) AS stated
  FROM evidence
  GROUP BY rid, domain
),
speaks_language_models AS (
  -- a domain with a `requires` list (the language-model domains) is chosen only when the repository says one of
  -- those words, or one of the domain's own strong phrases, topics or packages: generic words alone ("api", "sdk",
  -- "interface", "fast", "locally") never make a project language-model tooling
  SELECT DISTINCT h.rid, s.domain
  FROM hits h
  JOIN phrase_signals s ON s.phrase_id = h.phrase_id AND s.target = 'requires'
  WHERE h.source <> 'owner'
  UNION
  SELECT DISTINCT e.rid, e.domain
  FROM evidence e
  LEFT JOIN phrase_signals s ON s.phrase_id = e.phrase_id AND s.domain = e.domain AND s.target = 'domain'
  WHERE e.source <> 'owner' AND (e.source IN ('package', 'dependency', 'repository') OR s.list_rank IN (1, 4))
),
negated AS (
  -- a phrase inside a mention of the same domain that matched ("for ai agents" holds "ai agent") decides nothing
  SELECT DISTINCT p.rid, p.domain, p.source, p.phrase_id
  FROM evidence p
  JOIN evidence n ON n.rid = p.rid AND n.domain = p.domain AND n.source = p.source AND n.weight < 0
  JOIN signal_phrases pp ON pp.phrase_id = p.phrase_id
  JOIN signal_phrases np ON np.phrase_id = n.phrase_id
  WHERE p.decides IS NOT NULL AND contains(' ' || np.phrase || ' ', ' ' || pp.phrase || ' ')
),
deciding AS (
  -- what can decide a domain, as people read it: the owner's name never does, nor a negated phrase
  SELECT e.rid, e.domain, e.decides, e.phrase_id, e.weight, e.source IN ('package', 'repository') AS package,
    e.source = 'topic' AS tagged,
    CASE e.source WHEN 'package' THEN 'package: ' || e.label WHEN 'dependency' THEN 'dependency: ' || e.label
      WHEN 'repository' THEN 'name: ' || e.label
      WHEN 'topic' THEN 'topic: ' || e.label ELSE 'phrase: ' || e.written END AS shown,
    coalesce(e.label, e.written) AS word
  FROM evidence e
  LEFT JOIN negated n USING (rid, domain, source, phrase_id)
  WHERE e.source <> 'owner' AND e.decides IS NOT NULL AND n.rid IS NULL
),
phrase_decided AS (
  -- a phrase of the field decides alone; the one shown is a package if any, else what the repository says of itself
  -- (name, description) over its topics, the heaviest, then the longest
  SELECT rid, domain,
    max({package: package, stated: NOT starts_with(shown, 'topic:'), weight: weight, length: length(word), shown: shown}).shown AS rule,
    bool_or(NOT starts_with(shown, 'topic:')) AS stated
  FROM deciding
  WHERE decides = 'phrase'
  GROUP BY rid, domain
),
word_decided AS (
  -- two independent signals decide together: two different words of the same domain ("audio" and "music"), or one
  -- word both tagged by the owner as a topic and said by the repository's name or description (a topic "agents" on
  -- a repository named tiny-agent); the two heaviest words are shown, or the word and where it was found
  SELECT rid, domain, false AS stated,
    CASE WHEN count(*) >= 2
      THEN 'signals: ' || array_to_string(list_transform(list_sort(list({w: -weight, t: word}))[1:2], lambda x: x.t), ' + ')
      ELSE 'signals: topic + ' || min(stated_word)
    END AS rule
  FROM (
    SELECT rid, domain, phrase_id, max(weight) AS weight, min(word) AS word,
      bool_or(tagged) AS tagged, bool_or(NOT tagged) AS said, min(CASE WHEN NOT tagged THEN word END) AS stated_word
    FROM deciding
    WHERE decides = 'word'
    GROUP BY rid, domain, phrase_id
  )
  GROUP BY rid, domain
  HAVING count(*) >= 2 OR bool_or(tagged AND said)
),
decided AS (
  -- stated: a phrase of the repository's own name, description or packages decided (not a topic alone)
  SELECT rid, domain, rule, stated FROM phrase_decided
  UNION ALL
  SELECT w.rid, w.domain, w.rule, w.stated FROM word_decided w ANTI JOIN phrase_decided p USING (rid, domain)
),
yields AS (
  -- technique domains give way to the modality or application they serve ("a diffusion model that generates
  -- audio is audio-ai"): when the target has a strong signal of its own in what the repository says it is, it also
  -- counts the technique's weight (a topic alone does not take over: owners tag what a project touches)
  SELECT domain AS technique, unnest(d.yields_to) AS target FROM domains
),
adjusted_scores AS (
  SELECT s.rid, s.domain, s.score + coalesce(sum(t.score), 0) AS score
  FROM domain_scores s
  LEFT JOIN yields y ON y.target = s.domain AND s.stated >= 3
  LEFT JOIN (domain_scores t SEMI JOIN decided USING (rid, domain))
    ON t.rid = s.rid AND t.domain = y.technique AND t.score > 0
  GROUP BY s.rid, s.domain, s.score
),
ranked AS (
  -- an identity domain (mcp: "an MCP server for GitHub is mcp") that the repository's own words decide comes first;
  -- then the heaviest domain that something decided; ties go to the narrower domain (priority). Scores are multiples
  -- of 0.25 below 10,000 and priorities below 250, so this orders by identity, score, then priority (an aggregate is
  -- cheaper than a window).
  SELECT s.rid, s.domain, d.stack_layer, x.rule,
    (coalesce(d.identity, false) AND x.stated)::INTEGER * 1e7 + s.score * 1000 - d.domain_rank AS rank
  FROM adjusted_scores s
  JOIN domains d USING (domain)
  JOIN decided x USING (rid, domain)
  LEFT JOIN speaks_language_models q USING (rid, domain)
  WHERE s.score > 0 AND (d.requires IS NULL OR q.rid IS NOT NULL)
),
best AS MATERIALIZED (
  SELECT rid, arg_max(domain, rank) AS domain, arg_max(stack_layer, rank) AS domain_layer, arg_max(rule, rank) AS rule
  FROM ranked
  GROUP BY rid
),
winner_hits AS MATERIALIZED (
  -- the phrases of each repository beside its domain (materialised so the join below probes a small table)
  SELECT h.rid, h.source, h.label, h.phrase_id, b.domain FROM hits h JOIN best b USING (rid)
),
subcategory AS MATERIALIZED (
  -- the winning domain's subcategory whose signals appear most (a phrase once per source, a topic once however
  -- many of its words are signals, weighed by subcategory_factor), ties to the one listed first
  SELECT rid, arg_max(subcategory, score * 1000 - list_rank) AS subcategory, arg_max(layer, score * 1000 - list_rank) AS layer
  FROM (
  SELECT h.rid, h.subcategory, h.layer, h.list_rank, sum(w.subcategory_factor) AS score
  FROM (
    SELECT DISTINCT h.rid, h.source, coalesce(h.label, h.phrase_id::VARCHAR) AS signal, s.subcategory, s.layer,
      s.list_rank
    FROM winner_hits h
    JOIN phrase_signals s ON s.phrase_id = h.phrase_id AND s.domain = h.domain AND s.target = 'subcategory'
  ) h
  JOIN source_weights w USING (source)
  GROUP BY h.rid, h.subcategory, h.layer, h.list_rank
  )
  GROUP BY rid
),
layer_votes AS (
  -- priors: the subcategory's layer (3) and the domain's (1; 2.5 when no subcategory fits); a layer phrase of the
  -- name or description (4.5 / 2 / 1, halved in the description's tail) says what the repository is and can outweigh
  -- them (topics are too noisy)
  SELECT rid, layer, 3.0 AS votes FROM subcategory WHERE layer IS NOT NULL
  UNION ALL
  SELECT b.rid, b.domain_layer, CASE WHEN s.layer IS NULL THEN 2.5 ELSE 1.0 END
  FROM best b
  LEFT JOIN subcategory s USING (rid)
  UNION ALL
  SELECT rid, layer, weight
  FROM (
    SELECT h.rid, s.layer, s.phrase_id, max(s.weight * w.layer_factor) AS weight
    FROM hits h
    JOIN phrase_signals s ON s.phrase_id = h.phrase_id AND s.target = 'layer'
    JOIN source_weights w USING (source)
    WHERE w.layer_factor > 0
    GROUP BY ALL
  )
),
layer AS (
  -- the most votes; ties in the order of the layers (model first)
  SELECT rid, arg_max(layer, votes * 1000 - list_position(['model', 'inference', 'orchestration', 'data', 'eval', 'interface', 'infra'], layer)) AS layer
  FROM (SELECT rid, layer, sum(votes) AS votes FROM layer_votes GROUP BY rid, layer)
  GROUP BY rid
)
SELECT
  i.node_id,
  coalesce(b.domain, t.fallback.domain) AS domain,
  s.subcategory,
  coalesce(l.layer, t.fallback.stack_layer) AS stack_layer,
  coalesce(b.rule, 'fallback: no domain signal') AS rule
FROM repos i
CROSS JOIN taxonomy t
LEFT JOIN best b USING (rid)
LEFT JOIN subcategory s USING (rid)
LEFT JOIN layer l USING (rid);
