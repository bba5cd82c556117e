-- project_detail: every tracked repository as a project detail (schemas/project-detail.ts projectDetailSchema),
-- sharded into 256 partitions by the first two hex digits of md5(slug) (route-spec.ts shardOf), keyed by slug.
-- One statement, each side table (snapshots, releases, packages, papers) read once and aggregated per repository,
-- never queried per row. Memory is what bounds it at 220,000 repositories, so the aggregates keep compact values
-- (packed integers, timestamps) and everything derived from them — dense series, URLs, formatted times — is
-- computed in the projections after the joins, which stream. Times are ISO 8601 UTC. The daily series hold the last
-- getvariable('detail_history_days') nights (schemas/project-detail.ts DETAIL_HISTORY_DAYS, set by setRenderVariables).
WITH pass AS (
  -- the repositories of the partitions rendered in this pass (getvariable('partitions'); unset: all of them)
  SELECT node_id, full_name
  FROM projects
  WHERE getvariable('partitions') IS NULL OR list_contains(getvariable('partitions'), left(md5(slug), 2))
),
star_nights AS (
  -- one unordered list per repository, each night packed into an INTEGER (night << 24 | stars; night 0 is
  -- the first of the detail_history_days nights) and sorted after: DuckDB's ordered list aggregates need gigabytes at
  -- 220,000 repositories x 90 nights, and a list of INTEGER costs half of one of BIGINT (a star count above 2^24 - 1,
  -- 16.7 million, would be clamped)
  SELECT
    hash(node_id) AS node,
    list_sort(list(
      (date_diff('day', getvariable('run_date') - getvariable('detail_history_days') + 1, date)::INTEGER << 24)
      | least(stars, 16777215))) AS packed
  FROM snapshots
  WHERE date > getvariable('run_date') - getvariable('detail_history_days') AND date <= getvariable('run_date')
    AND node_id IN (SELECT node_id FROM pass)
  GROUP BY node
),
download_nights AS (
  -- only the nights with downloads or an unknown figure (most repositories have no package), packed as
  -- night << 40 | downloads, an unknown (NULL) figure as 2^40 - 1 (more than a trillion a month: no real figure)
  SELECT
    hash(node_id) AS node,
    list_sort(list((date_diff('day', getvariable('run_date') - getvariable('detail_history_days') + 1, date) << 40)
      | coalesce(downloads_monthly, 1099511627775))) AS packed
  FROM snapshots
  WHERE date > getvariable('run_date') - getvariable('detail_history_days') AND date <= getvariable('run_date')
    AND (downloads_monthly > 0 OR downloads_monthly IS NULL)
    AND node_id IN (SELECT node_id FROM pass)
  GROUP BY node
),
registry_start AS (
  -- the first night of the 90 on which any repository counted downloads: the registries (PyPI, npm, Hugging Face)
  -- were read from that night on. The nightly writes NULL on the nights before (pipeline/sql/snapshots.sql), which
  -- download_nights reads as unknown; nights written before it did hold 0 there, because nothing was collected, not
  -- because nothing was downloaded, and stay in the warehouse for 90 nights (and in the history's Parquet), so this
  -- reads them as unknown too. Read over all repositories, not the pass's, so every pass agrees on it; NULL when
  -- no night has any. The first row by date rather than min(): snapshots are stored night after night, so it stops
  -- early (at 220,000 repositories x 90 nights, 10 to 40 ms against 70 to 110 ms, per pass).
  SELECT (
    SELECT date_diff('day', getvariable('run_date') - getvariable('detail_history_days') + 1, date)::INTEGER
    FROM snapshots
    WHERE date > getvariable('run_date') - getvariable('detail_history_days') AND date <= getvariable('run_date')
      AND downloads_monthly > 0
    ORDER BY date
    LIMIT 1
  ) AS night
),
month_lists AS (
  -- history_monthly: the last snapshot of each month over every night the warehouse holds (a nightly's 90, a list's
  -- years), one struct per month led by its number (year * 12 + month - 1) so list_sort orders them; its downloads
  -- unknown on the 90 nights where the nightly series says so (registry_start), as the list recorded them before
  SELECT
    node,
    list_sort(list({m: m, stars: last.stars, downloads: last.downloads})) AS months
  FROM (
    SELECT
      hash(node_id) AS node,
      year(date) * 12 + month(date) - 1 AS m,
      arg_max({
        stars: stars,
        downloads: CASE WHEN date > getvariable('run_date') - getvariable('detail_history_days')
          AND (r.night IS NULL OR date < getvariable('run_date') - getvariable('detail_history_days') + 1 + r.night)
          THEN NULL ELSE downloads_monthly END
      }, date) AS last
    FROM snapshots
    CROSS JOIN registry_start r
    WHERE date <= getvariable('run_date') AND node_id IN (SELECT node_id FROM pass)
    GROUP BY ALL
  )
  GROUP BY node
),
release_lists AS (
  -- the newest 10 of each repository by a window (its sort spills; an ordered list aggregate over every release
  -- does not), listed with their position first so list_sort restores the order
  SELECT
    node_id,
    any_value(observed) AS observed,
    list_sort(list({
      position: position, source: source, package: package, version: version, released_at: released_at,
      first_seen: first_seen, prerelease: is_prerelease
    })) AS latest
  FROM (
    SELECT
      *,
      row_number() OVER w AS position,
      count(*) OVER (PARTITION BY node_id) AS observed
    FROM releases
    WHERE node_id IN (SELECT node_id FROM pass)
    WINDOW w AS (PARTITION BY node_id ORDER BY coalesce(released_at, first_seen) DESC, source, version)
    QUALIFY position <= 10
  )
  GROUP BY node_id
),
package_lists AS (
  -- each struct starts with registry and package, so list_sort orders them without an ordered aggregate
  SELECT
    full_name,
    list_sort(list({
      registry: registry,
      package: package,
      version: version,
      -- a figure the warehouse does not know (NULL) stays null, as in the public database's packages table
      downloads_monthly: downloads_monthly,
      pulls_total: CASE WHEN registry = 'docker' THEN pulls_total END,
      dependents: coalesce(dependents, 0),
      latest_release_at: latest_release_at,
      as_of: as_of,
      stale: coalesce(is_stale, false)
    })) AS packages,
    min(as_of) FILTER (WHERE registry = 'pypi') AS pypi_as_of,
    min(as_of) FILTER (WHERE registry = 'npm') AS npm_as_of,
    min(as_of) FILTER (WHERE registry = 'docker') AS docker_as_of,
    min(as_of) FILTER (WHERE registry = 'huggingface') AS huggingface_as_of
  FROM packages
  WHERE full_name IN (SELECT full_name FROM pass)
  GROUP BY full_name
),
alternative_lists AS (
  -- each repository's rows of alternatives (pipeline/sql/alternatives.sql), their position first so list_sort
  -- restores the order
  SELECT
    node_id,
    list_transform(list_sort(list({
      position: position, full_name: full_name, slug: slug, quality_score: quality_score, quality_tier: quality_tier,
      stars: stars, match: match
    })), a -> {
      full_name: a.full_name, slug: a.slug, quality_score: a.quality_score, quality_tier: a.quality_tier,
      stars: a.stars, match: a.match
    }) AS alternatives
  FROM alternatives
  WHERE node_id IN (SELECT node_id FROM pass)
  GROUP BY node_id
),
paper_lists AS (
  SELECT
    full_name,
    list({arxiv_id: arxiv_id, title: title, url: coalesce(abs_url, 'https://arxiv.org/abs/' || arxiv_id), published_at: published_at}
      ORDER BY published_at DESC, arxiv_id) AS papers
  FROM (SELECT unnest(full_names) AS full_name, arxiv_id, title, abs_url, published_at FROM papers)
  GROUP BY full_name
),
sources AS (
  -- whether each source delivered on the run date (a failed source keeps its last facts)
  SELECT
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'github'), false) AS github,
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'github_rest'), false) AS github_rest,
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'pypi'), false) AS pypi,
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'npm'), false) AS npm,
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'dockerhub'), false) AS dockerhub,
    coalesce(bool_or(s.fresh) FILTER (WHERE s.source = 'huggingface'), false) AS huggingface
  FROM (SELECT unnest(sources, recursive := true) FROM ds_status) AS s
),
joined AS (
  SELECT
    p.*,
    f.run_date AS github_as_of,
    coalesce(f.details_as_of, f.run_date) AS counts_as_of,
    f.activity_as_of,
    e.explanation,
    sn.packed AS star_nights,
    dn.packed AS download_nights,
    ml.months AS month_list,
    coalesce(r.observed, 0) AS releases_observed,
    coalesce(r.latest, []) AS releases_latest,
    coalesce(k.packages, []) AS package_list,
    k.pypi_as_of,
    k.npm_as_of,
    k.docker_as_of,
    k.huggingface_as_of,
    coalesce(a.papers, []) AS paper_list,
    coalesce(alt.alternatives, []) AS alternative_list,
    s.github AS github_fresh,
    s.github_rest AS github_rest_fresh,
    s.pypi AS pypi_fresh,
    s.npm AS npm_fresh,
    s.dockerhub AS dockerhub_fresh,
    s.huggingface AS huggingface_fresh
  FROM projects p
  JOIN pass USING (node_id)
  JOIN feat_repos f USING (node_id)
  JOIN score_explanations e USING (node_id)
  CROSS JOIN sources s
  LEFT JOIN star_nights sn ON sn.node = hash(p.node_id)
  LEFT JOIN download_nights dn ON dn.node = hash(p.node_id)
  LEFT JOIN month_lists ml ON ml.node = hash(p.node_id)
  LEFT JOIN release_lists r USING (node_id)
  LEFT JOIN package_lists k ON k.full_name = p.full_name
  LEFT JOIN paper_lists a ON a.full_name = p.full_name
  LEFT JOIN alternative_lists alt USING (node_id)
),
series AS (
  -- one value per night, null for a night without a snapshot: the values behind the nights before the first one
  -- when the nights are contiguous (the rule: a repository has a snapshot every night from its first), night by
  -- night otherwise; downloads likewise, 0 on a snapshot's night without downloads, null on one whose figure is
  -- unknown (the packed 2^40 - 1), made unknown before the registries' first night by `known`
  SELECT
    *,
    CASE
      WHEN star_nights IS NULL THEN list_resize([]::INTEGER[], getvariable('detail_history_days'))
      WHEN contiguous
        THEN list_resize(
          list_concat(list_resize([]::INTEGER[], first_night), list_transform(star_nights, x -> x & 16777215)),
          getvariable('detail_history_days'))
      ELSE list_transform(range(getvariable('detail_history_days')),
        i -> star_nights[list_position(nights, i::INTEGER)] & 16777215)
    END AS stars_history,
    CASE
      WHEN star_nights IS NULL THEN list_resize([]::BIGINT[], getvariable('detail_history_days'))
      WHEN contiguous AND download_nights IS NULL
        THEN list_resize(list_resize(list_resize([]::BIGINT[], first_night), first_night + len(star_nights), 0),
          getvariable('detail_history_days'))
      WHEN contiguous AND len(download_nights) = len(star_nights)
        THEN list_resize(list_concat(list_resize([]::BIGINT[], first_night),
          list_transform(download_nights, x -> nullif(x & 1099511627775, 1099511627775))), getvariable('detail_history_days'))
      ELSE list_transform(range(getvariable('detail_history_days')), i -> CASE
        WHEN list_contains(download_days, i) THEN nullif(download_nights[list_position(download_days, i)] & 1099511627775, 1099511627775)
        WHEN list_contains(nights, i::INTEGER) THEN 0 END)
    END AS downloads_nightly
  FROM (
    -- a night's value is found by its position in the nights list (list_position runs natively; a lambda filter
    -- per night cost 90 x 90 lambda calls a repository with gaps in its history)
    SELECT *, star_nights[1] >> 24 AS first_night, (star_nights[-1] >> 24) - (star_nights[1] >> 24) + 1 = len(star_nights) AS contiguous,
      list_transform(star_nights, x -> x >> 24) AS nights,
      list_transform(download_nights, x -> x >> 40) AS download_days,
      coalesce(month_list[1].m, year(getvariable('run_date')) * 12 + month(getvariable('run_date')) - 1) AS first_month,
      list_transform(month_list, x -> x.m) AS month_numbers
    FROM joined
  )
),
known AS (
  -- downloads are unknown (null) on the nights before the registries' first (registry_start), and on every night
  -- when no night has any
  SELECT
    *,
    CASE WHEN r.night IS NULL THEN list_resize([]::BIGINT[], getvariable('detail_history_days'))
      ELSE list_concat(list_resize([]::BIGINT[], r.night),
        list_slice(downloads_nightly, r.night + 1, getvariable('detail_history_days')))
    END AS downloads_history
  FROM series
  CROSS JOIN registry_start r
)
SELECT
  left(md5(slug), 2) AS _partition,
  [slug] AS _keys,
  to_json({
    slug: slug,
    full_name: full_name,
    owner: owner,
    name: name,
    description: nullif(description, ''),
    stars: stars,
    forks: forks,
    language: nullif(language, ''),
    license: nullif(license, ''),
    subcategory: nullif(subcategory, ''),
    pypi_package: nullif(pypi_package, ''),
    -- NULL (unknown: no download figure was read for it) stays null, as in the datasets and the public database
    downloads_monthly: downloads_monthly,
    quality_score: quality_score,
    quality_tier: quality_tier,
    maintenance_score: maintenance_score,
    adoption_score: adoption_score,
    maturity_score: maturity_score,
    community_score: community_score,
    domain: domain,
    stack_layer: stack_layer,
    classification_rule: classification_rule,
    topics: coalesce(topics, []::VARCHAR[]),
    archived: is_archived,
    fork: is_fork,
    created_at: strftime(created_at, '%Y-%m-%dT%H:%M:%SZ'),
    pushed_at: strftime(pushed_at, '%Y-%m-%dT%H:%M:%SZ'),
    last_commit_at: strftime(last_commit_at, '%Y-%m-%dT%H:%M:%SZ'),
    metrics: {
      watchers: watchers,
      open_issues: open_issues,
      closed_issues: closed_issues,
      contributors: contributors,
      commits_30d: commits_30d,
      commits_90d: commits_90d,
      commits_52w: commits_52w,
      issue_response_median_hours: round(issue_response_median_hours, 1),
      -- unknown (NULL: a list records no package dependencies) stays null
      dependents: dependents,
      hn_posts_90d: coalesce(hn_posts_90d, 0),
      hn_points_90d: coalesce(hn_points_90d, 0),
      papers: coalesce(papers, 0)
    },
    downloads: {
      -- each figure as the warehouse holds it: NULL (unknown) is null, never 0
      monthly_total: downloads_monthly,
      pypi: CASE WHEN pypi_package IS NOT NULL
        THEN {package: pypi_package, monthly: pypi_downloads_monthly} END,
      npm: CASE WHEN npm_package IS NOT NULL
        THEN {package: npm_package, monthly: npm_downloads_monthly} END,
      huggingface: CASE WHEN hf_models > 0
        THEN {models: hf_models, monthly: hf_downloads_monthly} END,
      docker: CASE WHEN docker_image IS NOT NULL
        THEN {image: docker_image, pulls_total: docker_pulls} END
    },
    packages: list_transform(package_list, k -> {
      registry: k.registry, package: k.package, version: k.version, downloads_monthly: k.downloads_monthly,
      pulls_total: k.pulls_total, dependents: k.dependents,
      latest_release_at: strftime(k.latest_release_at, '%Y-%m-%dT%H:%M:%SZ'), as_of: k.as_of, stale: k.stale
    }),
    score_explanation: explanation,
    lifecycle_stage: lifecycle_stage,
    lifecycle_since: lifecycle_since,
    first_seen: first_seen,
    momentum: {
      score: momentum,
      stars_7d_delta: stars_7d_delta,
      stars_30d_delta: stars_30d_delta,
      growth_7d_pct: growth_7d_pct,
      growth_30d_pct: growth_30d_pct,
      -- night 59 of the history is run_date - 30
      downloads_change_pct_30d: CASE WHEN downloads_history[60] > 0
        THEN round(100.0 * (downloads_monthly - downloads_history[60]) / downloads_history[60], 2) END
    },
    hype_ratio: hype_ratio,
    alternatives: alternative_list,
    releases: {
      count: coalesce(releases_total, 0),
      observed: releases_observed,
      latest: list_transform(releases_latest, r -> {
        source: r.source,
        package: r.package,
        version: r.version,
        released_at: strftime(r.released_at, '%Y-%m-%dT%H:%M:%SZ'),
        first_seen: r.first_seen,
        prerelease: r.prerelease,
        url: CASE r.source
          WHEN 'pypi' THEN 'https://pypi.org/project/' || r.package || '/' || url_encode(r.version) || '/'
          WHEN 'npm' THEN 'https://www.npmjs.com/package/' || r.package || '/v/' || url_encode(r.version)
          ELSE 'https://github.com/' || full_name || '/releases/tag/' || url_encode(r.version)
        END
      })
    },
    history: {
      "from": getvariable('run_date') - getvariable('detail_history_days') + 1,
      "to": getvariable('run_date'),
      stars: stars_history,
      downloads_monthly: downloads_history
    },
    history_monthly: {
      "from": printf('%04d-%02d', first_month // 12, first_month % 12 + 1),
      "to": strftime(getvariable('run_date'), '%Y-%m'),
      stars: list_transform(range(first_month, year(getvariable('run_date')) * 12 + month(getvariable('run_date'))),
        i -> month_list[list_position(month_numbers, i)].stars),
      downloads_monthly: list_transform(range(first_month, year(getvariable('run_date')) * 12 + month(getvariable('run_date'))),
        i -> month_list[list_position(month_numbers, i)].downloads)
    },
    links: {
      repository: 'https://github.com/' || full_name,
      homepage: nullif(trim(homepage), ''),
      pypi: list_transform(list_filter(package_list, k -> k.registry = 'pypi'),
        k -> 'https://pypi.org/project/' || k.package || '/'),
      npm: list_transform(list_filter(package_list, k -> k.registry = 'npm'),
        k -> 'https://www.npmjs.com/package/' || k.package),
      -- official images live under library/ and have pages of their own
      docker: list_transform(list_filter(package_list, k -> k.registry = 'docker'),
        k -> CASE WHEN starts_with(k.package, 'library/') THEN 'https://hub.docker.com/_/' || k.package[9:]
          ELSE 'https://hub.docker.com/r/' || k.package END),
      huggingface: list_transform(list_filter(package_list, k -> k.registry = 'huggingface'),
        k -> 'https://huggingface.co/' || k.package),
      papers: list_transform(paper_list, a -> {
        arxiv_id: a.arxiv_id, title: a.title, url: a.url,
        published_at: strftime(a.published_at, '%Y-%m-%dT%H:%M:%SZ')
      })
    },
    freshness: {
      stale: coalesce(is_stale, false),
      carried: coalesce(is_carried, false),
      counts_as_of: counts_as_of,
      sources: list_filter([
        {source: 'github', as_of: github_as_of, fresh: github_fresh},
        {source: 'github_rest', as_of: activity_as_of, fresh: github_rest_fresh},
        CASE WHEN pypi_as_of IS NOT NULL THEN {source: 'pypi', as_of: pypi_as_of, fresh: pypi_fresh} END,
        CASE WHEN npm_as_of IS NOT NULL THEN {source: 'npm', as_of: npm_as_of, fresh: npm_fresh} END,
        CASE WHEN docker_as_of IS NOT NULL
          THEN {source: 'dockerhub', as_of: docker_as_of, fresh: dockerhub_fresh} END,
        CASE WHEN huggingface_as_of IS NOT NULL
          THEN {source: 'huggingface', as_of: huggingface_as_of, fresh: huggingface_fresh} END
      ], x -> x IS NOT NULL)
    },
    data_date: getvariable('run_date'),
    -- the Markdown of the quality badge (publish/badges.ts badgeMarkdown, with __owner__ and __repo__ to fill)
    badge_markdown: replace(replace(getvariable('badge_markdown'), '__owner__', owner), '__repo__', name)
  })::VARCHAR AS record
FROM known
ORDER BY _partition, slug, node_id
