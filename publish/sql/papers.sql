-- papers: arXiv papers linked from tracked repositories (schemas/digest-records.ts paperSchema), newest first
-- (published_at DESC, arxiv_id), each with the projects implementing it, most stars first. Filter domain matches any
-- of a paper's domains; name search on the lower-cased title; _rank is the age in days of its first version, so an
-- optional look-back is a rank range over this one list.
WITH implementations AS (
  SELECT
    l.arxiv_id,
    list({full_name: p.full_name, slug: p.slug, domain: p.domain, stars: p.stars}
      ORDER BY p.stars DESC, p.full_name) AS projects
  FROM (SELECT arxiv_id, unnest(full_names) AS full_name FROM papers) l
  JOIN projects p USING (full_name)
  GROUP BY l.arxiv_id
)
SELECT
  a.domains AS _f_domain,
  lower(replace(a.title, chr(10), ' ')) AS _search,
  date_diff('day', a.published_at::DATE, getvariable('run_date'))::INTEGER AS _rank,
  to_json({
    arxiv_id: a.arxiv_id,
    title: a.title,
    authors: a.authors,
    summary: a.summary,
    published_at: strftime(a.published_at, '%Y-%m-%dT%H:%M:%SZ'),
    updated_at: strftime(a.updated_at, '%Y-%m-%dT%H:%M:%SZ'),
    primary_category: nullif(a.primary_category, ''),
    categories: a.categories,
    abs_url: coalesce(a.abs_url, 'https://arxiv.org/abs/' || a.arxiv_id),
    pdf_url: a.pdf_url,
    domains: a.domains,
    projects: i.projects
  })::VARCHAR AS record
FROM papers a
JOIN implementations i USING (arxiv_id)
ORDER BY a.published_at DESC, a.arxiv_id
