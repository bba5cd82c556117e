-- briefings: the list of weekly briefings (schemas/digest-records.ts briefingSummarySchema) from ds_briefings, newest
-- first, then by domain; filter domain. A quiet week (nothing rose, shipped, entered, moved or faded) has nothing
-- to tell and is not listed.
SELECT
  domain AS _f_domain,
  to_json({
    slug: slug,
    domain: domain,
    week: week,
    title: title,
    summary: summary,
    published: strftime(date, '%Y-%m-%d')
  })::VARCHAR AS record
FROM ds_briefings
WHERE NOT is_quiet
ORDER BY date DESC, domain
