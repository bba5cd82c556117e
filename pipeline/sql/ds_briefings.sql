-- ds_briefings: one weekly narrative per domain of the taxonomy, written from the data: what rose (stars_7d_delta),
-- what shipped (ds_whats_new releases of briefing_days), what entered tracking and what changed lifecycle stage
-- within briefing_days, what faded (transitions into fading or dormant within briefing_faded_days, still there),
-- and counts. A section with nothing to tell is left out (the counts say 0), never written as filler; a week with
-- nothing at all is is_quiet. Each briefing carries the facts it is written from (movers, entrants, transitions,
-- releases: the briefing_top_n of each, the rest counted). Slug <domain>-<ISO year>-w<ISO week>: one briefing per
-- week, refreshed each night of that week and kept after it (the table holds every week since the first night).
CREATE OR REPLACE TEMP MACRO briefing_count(n, noun) AS
  format('{:,} {}', n, CASE WHEN n = 1 THEN noun ELSE noun || 's' END);
-- "a", "a and b", "a, b and c"
CREATE OR REPLACE TEMP MACRO briefing_join(items) AS CASE
  WHEN len(items) <= 1 THEN coalesce(items[1], '')
  ELSE array_to_string(items[1:len(items) - 1], ', ') || ' and ' || items[len(items)]
END;

CREATE OR REPLACE TEMP TABLE briefings_tonight AS
WITH domains AS (
  SELECT d.slug AS domain
  FROM (SELECT unnest(domains) AS d FROM read_json(${taxonomy_file}, maximum_object_size = 16777216))
),
sizes AS (
  SELECT domain, count(*) AS projects, sum(stars) AS stars FROM projects GROUP BY domain
),
rose AS (
  SELECT
    domain,
    count(*) AS rose,
    max(stars_7d_delta) AS top_delta,
    -- momentum: the 7-day pace against the 30-day one, 0 steady; left out when it rounds to 0
    list(format('{} (+{} to {:,}{})', full_name, briefing_count(stars_7d_delta, 'star'), stars,
        CASE WHEN abs(momentum) >= 0.05 THEN format(', momentum {:+.1f}', momentum) ELSE '' END)
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names,
    list({full_name: full_name, slug: slug, stars: stars, stars_7d_delta: stars_7d_delta, momentum: momentum}
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS facts
  FROM (
    SELECT *, row_number() OVER (PARTITION BY domain ORDER BY stars_7d_delta DESC, stars DESC, full_name) AS n
    FROM projects
    WHERE stars_7d_delta > 0
  )
  GROUP BY domain
),
entered AS (
  -- first tracked within the week; not the warehouse's first night, when every project was first seen at once
  SELECT
    domain,
    count(*) AS entered,
    list(format('{} ({}, {})', full_name, briefing_count(stars, 'star'), lifecycle_stage)
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names,
    list({full_name: full_name, slug: slug, stars: stars, first_seen: first_seen, lifecycle_stage: lifecycle_stage}
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS facts
  FROM (
    SELECT *, row_number() OVER (PARTITION BY domain ORDER BY stars DESC, full_name) AS n
    FROM projects
    WHERE first_seen > getvariable('run_date') - getvariable('briefing_days')
      AND first_seen > (SELECT min(first_seen) FROM projects)
  )
  GROUP BY domain
),
shipped AS (
  SELECT
    domain,
    count(*) AS shipped,
    list(format('{} {}', full_name, version) ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names,
    list({full_name: full_name, slug: slug, version: version, source: source, date: date, url: url}
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS facts
  FROM (
    SELECT *, row_number() OVER (PARTITION BY domain ORDER BY weight DESC, date DESC, full_name, version) AS n
    FROM ds_whats_new
    WHERE kind = 'release' AND date > getvariable('run_date') - getvariable('briefing_days')
  )
  GROUP BY domain
),
changes AS (
  -- a change of stage (not a repository's first staging, from_stage NULL), the latest of each repository, still
  -- its stage today (a project that moved on since is not news any more): into fading or dormant within
  -- briefing_faded_days (faded), into any other stage within briefing_days (moved)
  SELECT p.domain, p.full_name, p.slug, p.stars, t.date, t.from_stage, t.to_stage,
    t.to_stage IN ('fading', 'dormant') AS is_fade
  FROM (
    SELECT *
    FROM transitions
    WHERE from_stage IS NOT NULL
      AND date > getvariable('run_date') - getvariable('briefing_faded_days') AND date <= getvariable('run_date')
    QUALIFY row_number() OVER (PARTITION BY node_id ORDER BY date DESC) = 1
  ) t
  JOIN projects p ON p.node_id = t.node_id AND p.lifecycle_stage = t.to_stage
  WHERE t.to_stage IN ('fading', 'dormant') OR t.date > getvariable('run_date') - getvariable('briefing_days')
),
staged AS (
  SELECT
    domain,
    is_fade,
    count(*) AS changed,
    list(CASE to_stage WHEN 'dormant' THEN full_name || ' went dormant' ELSE full_name || ' turned ' || to_stage END
        || ' (was ' || from_stage || ')'
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names,
    list({full_name: full_name, slug: slug, date: date, from_stage: from_stage, to_stage: to_stage}
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS facts
  FROM (SELECT *, row_number() OVER (PARTITION BY domain, is_fade ORDER BY stars DESC, full_name) AS n FROM changes)
  GROUP BY domain, is_fade
),
facts AS (
  SELECT
    d.domain,
    coalesce(z.projects, 0) AS projects_tracked,
    coalesce(z.stars, 0) AS stars,
    coalesce(r.rose, 0) AS rose,
    r.top_delta,
    coalesce(r.items, []) AS rose_items,
    coalesce(r.names, []) AS rose_names,
    coalesce(r.facts, []) AS movers,
    coalesce(e.entered, 0) AS entered,
    coalesce(e.items, []) AS entered_items,
    coalesce(e.names, []) AS entered_names,
    coalesce(e.facts, []) AS entrants,
    coalesce(s.shipped, 0) AS shipped,
    coalesce(s.items, []) AS shipped_items,
    coalesce(s.names, []) AS shipped_names,
    coalesce(s.facts, []) AS releases,
    coalesce(m.changed, 0) AS moved,
    coalesce(m.items, []) AS moved_items,
    coalesce(m.names, []) AS moved_names,
    coalesce(f.changed, 0) AS faded,
    coalesce(f.items, []) AS faded_items,
    coalesce(f.names, []) AS faded_names,
    coalesce(m.facts, []) || coalesce(f.facts, []) AS transitions,
    getvariable('briefing_days') AS days,
    getvariable('briefing_faded_days') AS faded_days,
    getvariable('briefing_top_n') AS top_n
  FROM domains d
  LEFT JOIN sizes z USING (domain)
  LEFT JOIN rose r USING (domain)
  LEFT JOIN entered e USING (domain)
  LEFT JOIN shipped s USING (domain)
  LEFT JOIN staged m ON m.domain = d.domain AND NOT m.is_fade
  LEFT JOIN staged f ON f.domain = d.domain AND f.is_fade
),
sentences AS (
  SELECT
    *,
    rose + entered + shipped + moved + faded = 0 AS is_quiet,
    format('In numbers: {} tracked with {:,} stars; in {} days {} gained stars, {} shipped, {} entered tracking and {} changed stage; {} faded in {} days.',
      briefing_count(projects_tracked, 'project'), stars, days, briefing_count(rose, 'project'),
      briefing_count(shipped, 'release'), briefing_count(entered, 'project'), briefing_count(moved, 'project'),
      briefing_count(faded, 'project'), faded_days) AS counts_sentence,
    CASE WHEN rose > 0 THEN format('What rose: {}{}.', briefing_join(rose_items),
      CASE WHEN rose > top_n THEN format(', of {} gaining stars', briefing_count(rose, 'project')) ELSE '' END)
    END AS rose_sentence,
    CASE WHEN entered > 0 THEN format('New: {}{}.', briefing_join(entered_items),
      CASE WHEN entered > top_n THEN format(', of {} entering tracking', briefing_count(entered, 'project')) ELSE '' END)
    END AS entered_sentence,
    CASE WHEN shipped > 0 THEN format('What shipped: {}{}.', briefing_join(shipped_items),
      CASE WHEN shipped > top_n THEN format(', of {} in all', briefing_count(shipped, 'release')) ELSE '' END)
    END AS shipped_sentence,
    CASE WHEN moved > 0 THEN format('What moved: {}{}.', briefing_join(moved_items),
      CASE WHEN moved > top_n THEN format(', of {} changing stage', briefing_count(moved, 'project')) ELSE '' END)
    END AS moved_sentence,
    CASE WHEN faded > 0 THEN format('What faded: {}{}.', briefing_join(faded_items),
      CASE WHEN faded > top_n THEN format(', of {} in all', briefing_count(faded, 'project')) ELSE '' END)
    END AS faded_sentence,
    list_filter([
      CASE WHEN rose > 0 THEN format('{} gained stars, led by {} (+{:,})', briefing_count(rose, 'project'),
        rose_names[1], top_delta) END,
      CASE WHEN shipped > 0 THEN briefing_count(shipped, 'release') || ' shipped' END,
      CASE WHEN entered > 0 THEN briefing_count(entered, 'project') || ' entered tracking' END,
      CASE WHEN moved > 0 THEN briefing_count(moved, 'project') || ' changed stage' END,
      CASE WHEN faded > 0 THEN briefing_count(faded, 'project') || ' faded' END
    ], x -> x IS NOT NULL) AS summary_parts
  FROM facts
)
SELECT
  domain || '-' || strftime(getvariable('run_date'), '%G-w%V') AS slug,
  domain,
  getvariable('run_date') AS date,
  strftime(getvariable('run_date'), '%G-w%V') AS week,
  CASE
    WHEN is_quiet THEN format('{}: a quiet week', domain)
    WHEN rose > 0 THEN format('{}: {} leads the week', domain, rose_names[1])
    WHEN shipped > 0 THEN format('{}: {} shipped', domain, shipped_items[1])
    WHEN entered > 0 THEN format('{}: {} is new', domain, entered_names[1])
    WHEN moved > 0 THEN format('{}: {}', domain, moved_items[1])
    ELSE format('{}: {}', domain, faded_items[1])
  END AS title,
  CASE
    WHEN is_quiet THEN format(
        'A quiet week in {}: no project gained stars, shipped a release, entered tracking or changed stage in the last {} days, and none faded in the last {} days.',
        domain, days, faded_days)
    ELSE format('In {}, {}.', domain, briefing_join(summary_parts))
  END AS summary,
  list_filter([rose_sentence, shipped_sentence, entered_sentence, moved_sentence, faded_sentence, counts_sentence],
    x -> x IS NOT NULL) AS body,
  list_sort(list_distinct(rose_names || shipped_names || entered_names || moved_names || faded_names)) AS projects,
  movers,
  entrants,
  transitions,
  releases,
  projects_tracked,
  stars AS stars_total,
  rose,
  shipped,
  entered,
  moved,
  faded,
  days,
  faded_days,
  is_quiet
FROM sentences;

-- Kept week by week: tonight replaces its own week's briefings (and any later, when an earlier night is rerun);
-- UNION ALL BY NAME keeps the earlier weeks of a warehouse written by an older version of this file.
CREATE TABLE IF NOT EXISTS ds_briefings AS FROM briefings_tonight LIMIT 0;
CREATE OR REPLACE TABLE ds_briefings AS
FROM (
  FROM ds_briefings WHERE date < date_trunc('week', getvariable('run_date'))::DATE
  UNION ALL BY NAME
  FROM briefings_tonight
)
ORDER BY date DESC, domain;
