-- ds_briefings: one weekly narrative per domain of the taxonomy, written from the data: what rose (stars_7d_delta),
-- what shipped (ds_whats_new releases of briefing_days), what faded (transitions into fading or dormant within
-- briefing_faded_days, still there), and counts. Slug <domain>-<ISO year>-w<ISO week>: one briefing per week.
CREATE OR REPLACE TEMP MACRO briefing_count(n, noun) AS
  format('{:,} {}', n, CASE WHEN n = 1 THEN noun ELSE noun || 's' END);
-- "a", "a and b", "a, b and c"
CREATE OR REPLACE TEMP MACRO briefing_join(items) AS CASE
  WHEN len(items) <= 1 THEN coalesce(items[1], '')
  ELSE array_to_string(items[1:len(items) - 1], ', ') || ' and ' || items[len(items)]
END;

CREATE OR REPLACE TABLE ds_briefings AS
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
    list(format('{} (+{}{})', full_name, briefing_count(stars_7d_delta, 'star'),
        CASE WHEN abs(momentum) >= 0.05 THEN format(', momentum {:+.1f}', momentum) ELSE '' END)
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names
  FROM (
    SELECT *, row_number() OVER (PARTITION BY domain ORDER BY stars_7d_delta DESC, stars DESC, full_name) AS n
    FROM projects
    WHERE stars_7d_delta > 0
  )
  GROUP BY domain
),
shipped AS (
  SELECT
    domain,
    count(*) AS shipped,
    list(format('{} {}', full_name, version) ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names
  FROM (
    SELECT *, row_number() OVER (PARTITION BY domain ORDER BY weight DESC, date DESC, full_name, version) AS n
    FROM ds_whats_new
    WHERE kind = 'release' AND date > getvariable('run_date') - getvariable('briefing_days')
  )
  GROUP BY domain
),
faded AS (
  SELECT
    domain,
    count(*) AS faded,
    list(CASE to_stage WHEN 'dormant' THEN full_name || ' went dormant' ELSE full_name || ' turned fading' END
        || coalesce(' (was ' || from_stage || ')', '')
      ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS items,
    list(full_name ORDER BY n) FILTER (WHERE n <= getvariable('briefing_top_n')) AS names
  FROM (
    SELECT p.domain, p.full_name, t.from_stage, t.to_stage,
      row_number() OVER (PARTITION BY p.domain ORDER BY p.stars DESC, p.full_name) AS n
    FROM (
      SELECT *
      FROM transitions
      -- a change of stage, not a repository's first staging (from_stage NULL)
      WHERE to_stage IN ('fading', 'dormant') AND from_stage IS NOT NULL
        AND date > getvariable('run_date') - getvariable('briefing_faded_days') AND date <= getvariable('run_date')
      QUALIFY row_number() OVER (PARTITION BY node_id ORDER BY date DESC) = 1
    ) t
    -- a project that recovered since is not news any more
    JOIN projects p ON p.node_id = t.node_id AND p.lifecycle_stage = t.to_stage
  )
  GROUP BY domain
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
    coalesce(s.shipped, 0) AS shipped,
    coalesce(s.items, []) AS shipped_items,
    coalesce(s.names, []) AS shipped_names,
    coalesce(f.faded, 0) AS faded,
    coalesce(f.items, []) AS faded_items,
    coalesce(f.names, []) AS faded_names,
    getvariable('briefing_days') AS days,
    getvariable('briefing_faded_days') AS faded_days,
    getvariable('briefing_top_n') AS top_n
  FROM domains d
  LEFT JOIN sizes z USING (domain)
  LEFT JOIN rose r USING (domain)
  LEFT JOIN shipped s USING (domain)
  LEFT JOIN faded f USING (domain)
),
sentences AS (
  SELECT
    *,
    rose + shipped + faded = 0 AS is_quiet,
    format('In numbers: {} tracked with {:,} stars; {} gained stars and {} shipped in {} days; {} faded in {} days.',
      briefing_count(projects_tracked, 'project'), stars, briefing_count(rose, 'project'),
      briefing_count(shipped, 'release'), days, briefing_count(faded, 'project'), faded_days) AS counts_sentence,
    CASE WHEN rose = 0 THEN format('Nothing rose: no project gained stars in the last {} days.', days)
      ELSE format('What rose: {}{}.', briefing_join(rose_items),
        CASE WHEN rose > top_n THEN format(', of {} gaining stars', briefing_count(rose, 'project')) ELSE '' END)
    END AS rose_sentence,
    CASE WHEN shipped = 0 THEN format('Nothing shipped: no release in the last {} days.', days)
      ELSE format('What shipped: {}{}.', briefing_join(shipped_items),
        CASE WHEN shipped > top_n THEN format(', of {} in all', briefing_count(shipped, 'release')) ELSE '' END)
    END AS shipped_sentence,
    CASE WHEN faded = 0 THEN format('Nothing faded: no project turned fading or dormant in the last {} days.', faded_days)
      ELSE format('What faded: {}{}.', briefing_join(faded_items),
        CASE WHEN faded > top_n THEN format(', of {} in all', briefing_count(faded, 'project')) ELSE '' END)
    END AS faded_sentence
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
    ELSE format('{}: {}', domain, faded_items[1])
  END AS title,
  CASE
    WHEN is_quiet THEN format(
        'A quiet week in {}: no project gained stars or shipped a release in the last {} days, and none faded in the last {} days.',
        domain, days, faded_days)
    ELSE format('In {}, {}, {} and {}.', domain,
      CASE WHEN rose = 0 THEN 'no project gained stars'
        ELSE format('{} gained stars, led by {} (+{:,})', briefing_count(rose, 'project'), rose_names[1], top_delta)
      END,
      CASE WHEN shipped = 0 THEN 'nothing shipped' ELSE briefing_count(shipped, 'release') || ' shipped' END,
      CASE WHEN faded = 0 THEN 'none faded' ELSE briefing_count(faded, 'project') || ' faded' END)
  END AS summary,
  CASE WHEN is_quiet THEN [counts_sentence]
    ELSE [rose_sentence, shipped_sentence, faded_sentence, counts_sentence]
  END AS body,
  list_sort(list_distinct(rose_names || shipped_names || faded_names)) AS projects,
  projects_tracked,
  rose,
  shipped,
  faded,
  is_quiet
FROM sentences
ORDER BY domain;
