-- briefing_detail: each listed briefing in full (schemas/digest-records.ts briefingDetailSchema), keyed by slug:
-- the text, the counts and the facts it is written from (ds_briefings). Quiet weeks are not published, as in the list.
SELECT
  [slug] AS _keys,
  to_json({
    slug: slug,
    domain: domain,
    week: week,
    title: title,
    summary: summary,
    published: strftime(date, '%Y-%m-%d'),
    body: body,
    days: days,
    faded_days: faded_days,
    counts: {
      projects_tracked: projects_tracked,
      stars_total: stars_total,
      rose: rose,
      shipped: shipped,
      entered: entered,
      moved: moved,
      faded: faded
    },
    movers: movers,
    entrants: list_transform(entrants, e -> {
      full_name: e.full_name, slug: e.slug, stars: e.stars, first_seen: strftime(e.first_seen, '%Y-%m-%d'),
      lifecycle_stage: e.lifecycle_stage
    }),
    transitions: list_transform(transitions, t -> {
      full_name: t.full_name, slug: t.slug, date: strftime(t.date, '%Y-%m-%d'), from_stage: t.from_stage,
      to_stage: t.to_stage
    }),
    releases: list_transform(releases, r -> {
      full_name: r.full_name, slug: r.slug, version: r.version, source: r.source, date: strftime(r.date, '%Y-%m-%d'),
      url: r.url
    }),
    projects: projects
  })::VARCHAR AS record
FROM ds_briefings
WHERE NOT is_quiet
ORDER BY date DESC, domain
