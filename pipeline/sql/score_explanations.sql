-- score_explanations: per repository, why it scored what it did: for each component its points, its maximum and
-- every input with its value and the whole points it earned (keys in a fixed order), whether the finished-project
-- floor applied, and which inputs were unknown: an unknown value is null, marked `"fallback": true`, and earns the
-- share of the other components' known inputs (listed in `fallbacks`); an input read from a stand-in (active weeks
-- from GraphQL, last commit from the push date, all-time download totals spread over months) has its value and is
-- listed in `estimated`, never in `fallbacks`. `flags` warn of figures not to trust (package_mismatch), and
-- `history_share` is the share of its history a project kept (below 1: it has not shown life for a year).
-- Built from score_components, so the inputs' points always add up to the component; each input's rule and
-- maximum are in the methodology document (docs/methodology.md), not repeated 220,000 times here.
CREATE OR REPLACE TABLE score_explanations AS
WITH maxima AS (
  -- each component's maximum is the sum of its parts' maxima (25); the finished floor only fills up to it
  SELECT
    getvariable('commits_90d_points') + getvariable('active_weeks_points') + getvariable('last_commit_points')
      + getvariable('issue_response_points') + getvariable('release_recency_points') AS maintenance,
    getvariable('stars_points') + getvariable('forks_points') + getvariable('downloads_points')
      + getvariable('dependents_points') + getvariable('likes_points') AS adoption,
    getvariable('age_points') + getvariable('releases_points') + getvariable('stable_version_points')
      + getvariable('stable_share_points') + getvariable('license_points') + getvariable('docs_points') AS maturity,
    getvariable('contributors_points') + getvariable('merged_prs_points') + getvariable('issues_points')
      + getvariable('watchers_points') AS community
)
SELECT
  s.node_id,
  -- a struct turned into JSON at once: several times faster than nested json_object calls over 220,000 rows
  to_json({
    'maintenance': {
      'points': s.maintenance_score,
      'max_points': x.maintenance,
      'inputs': [
        {'name': 'commits_90d', 'value': to_json(s.commits_90d), 'points': s.m_commits, 'fallback': false},
        {'name': 'active_weeks_52w', 'value': to_json(s.active_weeks), 'points': s.m_active_weeks,
          'fallback': s.active_weeks IS NULL},
        {'name': 'days_since_last_commit', 'value': to_json(s.days_since_commit), 'points': s.m_last_commit, 'fallback': false},
        {'name': 'issue_response_median_hours', 'value': to_json(s.issue_response_hours),
          'points': s.m_issue_response, 'fallback': s.issue_response_hours IS NULL},
        {'name': 'days_since_release', 'value': to_json(s.days_since_release), 'points': s.m_release, 'fallback': false},
        {'name': 'finished_project_floor', 'value': to_json(s.is_finished), 'points': s.m_finished_floor, 'fallback': false}
      ]
    },
    'adoption': {
      'points': s.adoption_score,
      'max_points': x.adoption,
      'inputs': [
        {'name': 'stars', 'value': to_json(s.stars), 'points': s.a_stars, 'fallback': false},
        {'name': 'forks', 'value': to_json(s.forks), 'points': s.a_forks, 'fallback': false},
        {'name': 'downloads_and_pulls_monthly', 'value': to_json(s.downloads_and_pulls_monthly),
          'points': s.a_downloads, 'fallback': false},
        -- the count scored: a list's dependency-graph count where it gives one (`projintel rate`), else the tracked one
        {'name': 'dependents', 'value': to_json(coalesce(s.graph_dependents, s.dependents)), 'points': s.a_dependents,
          'fallback': false},
        {'name': 'registry_likes', 'value': to_json(s.registry_likes), 'points': s.a_likes,
          'fallback': s.registry_likes IS NULL}
      ]
    },
    'maturity': {
      'points': s.maturity_score,
      'max_points': x.maturity,
      'inputs': [
        {'name': 'age_days', 'value': to_json(s.age_days), 'points': s.t_age, 'fallback': false},
        {'name': 'releases', 'value': to_json(s.releases), 'points': s.t_releases, 'fallback': false},
        {'name': 'stable_release', 'value': to_json(s.stable_release), 'points': s.t_stable_version, 'fallback': false},
        {'name': 'stable_share', 'value': to_json(s.stable_share), 'points': s.t_stable_share,
          'fallback': s.stable_share IS NULL AND s.releases > 0},
        {'name': 'has_license', 'value': to_json(s.has_license), 'points': s.t_license, 'fallback': false},
        {'name': 'docs_signals', 'value': to_json(CASE WHEN s.docs_unknown = 0 THEN s.docs_signals END),
          'points': s.t_docs, 'fallback': s.docs_unknown > 0}
      ]
    },
    'community': {
      'points': s.community_score,
      'max_points': x.community,
      'inputs': [
        {'name': 'contributors', 'value': to_json(s.contributors), 'points': s.c_contributors,
          'fallback': s.contributors IS NULL},
        {'name': 'merged_prs', 'value': to_json(s.merged_prs), 'points': s.c_merged_prs,
          'fallback': s.merged_prs IS NULL},
        {'name': 'issues', 'value': to_json(s.issues), 'points': s.c_issues, 'fallback': false},
        {'name': 'watchers', 'value': to_json(s.watchers), 'points': s.c_watchers, 'fallback': false}
      ]
    },
    'archived': s.is_archived,
    'finished_project': s.is_finished,
    'history_share': round(s.alive_share, 2),
    -- the inputs unknown tonight, scored by their documented fallback (methodology: missing inputs): exactly those
    -- whose value above is null and marked fallback
    'fallbacks': list_filter([
      CASE WHEN s.active_weeks IS NULL THEN 'active_weeks_52w' END,
      CASE WHEN s.issue_response_hours IS NULL THEN 'issue_response_median_hours' END,
      CASE WHEN s.registry_likes IS NULL THEN 'registry_likes' END,
      CASE WHEN s.stable_share IS NULL AND s.releases > 0 THEN 'stable_share' END,
      CASE WHEN s.docs_unknown > 0 THEN 'docs_signals' END,
      CASE WHEN s.contributors IS NULL THEN 'contributors' END,
      CASE WHEN s.merged_prs IS NULL THEN 'merged_prs' END
    ], f -> f IS NOT NULL),
    -- inputs whose value is read from a stand-in, not measured as named (methodology: missing inputs)
    'estimated': list_filter([
      CASE WHEN s.active_weeks IS NOT NULL AND NOT s.active_weeks_known THEN 'active_weeks_52w' END,
      CASE WHEN s.days_since_commit_from_push THEN 'days_since_last_commit' END,
      CASE WHEN s.conda_estimated THEN 'conda_downloads_monthly' END,
      CASE WHEN s.release_downloads_estimated THEN 'release_downloads_monthly' END
    ], f -> f IS NOT NULL),
    'flags': list_filter([CASE WHEN s.package_mismatch THEN 'package_mismatch' END], f -> f IS NOT NULL)
  }) AS explanation
FROM score_components s
CROSS JOIN maxima x;
