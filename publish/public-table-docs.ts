// What each public table and its columns hold, for GET /api/v1/tables (docs/contracts.md, "Public tables"). Names and
// types come from the database itself; a column missing here is listed with a null description, and a test checks
// every column named here exists, so a renamed column cannot leave a stale description behind.
import type { PublicTable } from "../pipeline/public-db.ts";

export interface TableDoc {
  description: string;
  columns: Readonly<Record<string, string>>;
}

const REPO = {
  node_id: "GitHub's stable id of the repository; joins every table",
  full_name: "owner/name as GitHub spells it",
};

const SCORES = {
  quality_score: "Quality score, 0 to 100: the sum of the four components",
  maintenance_score: "Maintenance points, 0 to 25",
  adoption_score: "Adoption points, 0 to 25",
  maturity_score: "Maturity points, 0 to 25",
  community_score: "Community points, 0 to 25",
  quality_tier: "verified (80+), established (60–79), emerging (40–59) or experimental (0–39)",
};

export const PUBLIC_TABLE_DOCS: Readonly<Record<PublicTable, TableDoc>> = {
  projects: {
    description:
      "One row per tracked repository, as of the run date: metadata, activity, adoption, scores, trends",
    columns: {
      run_date: "The night the row describes",
      ...REPO,
      owner: "Owner (user or organisation)",
      name: "Repository name",
      slug: "URL-safe key: lower(owner) || '--' || lower(name)",
      description: "Short description",
      homepage: "Homepage URL",
      language: "Main programming language",
      license: "License identifier (SPDX)",
      topics: "GitHub topics",
      created_at: "When the repository was created",
      pushed_at: "Last push",
      last_commit_at: "Last commit on the default branch",
      is_archived: "Archived on GitHub",
      is_fork: "A fork of another repository",
      stars: "Stars",
      forks: "Forks",
      watchers: "Watchers",
      open_issues: "Open issues",
      closed_issues: "Closed issues",
      contributors: "Contributors; NULL when GitHub does not count them (the largest repositories)",
      commits_30d: "Commits in the last 30 days",
      commits_90d: "Commits in the last 90 days",
      commits_52w: "Commits in the last 52 weeks",
      issue_response_median_hours: "Median hours to an issue's first response",
      releases_total: "Releases on GitHub",
      latest_release_tag: "Tag of the latest GitHub release",
      latest_release_at: "When the latest GitHub release was published",
      pypi_package: "Linked PyPI package",
      npm_package: "Linked npm package",
      docker_image: "Linked Docker Hub image",
      hf_models: "Linked Hugging Face models",
      downloads_monthly:
        "Monthly downloads: PyPI + npm + Hugging Face; NULL when unknown (no figure was read), as in the API and the datasets; sorts last",
      pypi_downloads_monthly: "Monthly PyPI downloads; NULL when unknown",
      npm_downloads_monthly: "Monthly npm downloads; NULL when unknown",
      hf_downloads_monthly: "Monthly Hugging Face downloads; NULL when unknown",
      docker_pulls: "Cumulative Docker Hub pulls; NULL when unknown",
      dependents: "Tracked repositories depending on its packages",
      hn_posts_90d: "Hacker News posts linking it in the last 90 days",
      hn_points_90d: "Points of those posts",
      papers: "arXiv papers it links to",
      domain: "Domain (one of the 30)",
      subcategory: "Category inside the domain",
      stack_layer: "model, inference, orchestration, data, eval, interface or infra",
      classification_rule: "Which rule of the taxonomy classified it",
      ...SCORES,
      stars_7d_delta: "Stars gained in 7 days; NULL when the start is unknown",
      stars_30d_delta: "Stars gained in 30 days; NULL when the start is unknown",
      growth_7d_pct: "7-day star gain in percent of the stars at the start",
      growth_30d_pct: "30-day star gain in percent of the stars at the start",
      momentum: "(7-day daily rate − 30-day daily rate) / 30-day daily rate: above 0 accelerating",
      hype_ratio:
        "0 to 1: attention (stars, HN points) against adoption (downloads, dependents); 0.5 balanced",
      lifecycle_stage: "emerging, launching, growing, established, fading or dormant",
      lifecycle_since: "Since when it is in that stage",
      first_seen: "The first night it was tracked",
      is_stale: "Its GitHub data is from an earlier night (not refreshed tonight)",
      is_carried:
        "Scored without its collection shard (score --carry-missing): its values are the previous night's",
    },
  },
  snapshots: {
    description: "One row per tracked repository per night: the history of its counts and scores",
    columns: {
      date: "The night",
      ...REPO,
      stars: "Stars that night",
      forks: "Forks that night",
      watchers: "Watchers that night",
      open_issues: "Open issues that night",
      contributors: "Contributors that night",
      commits_30d: "Commits in the 30 days up to that night",
      downloads_monthly:
        "Monthly downloads that night; NULL when unknown: on a night before any registry (PyPI, npm, Hugging Face) was read, as in the API's history, or a figure a list did not state",
      dependents: "Tracked dependents that night",
      ...SCORES,
      lifecycle_stage: "Lifecycle stage that night",
    },
  },
  releases: {
    description:
      "Every release observed (GitHub's latest release, PyPI's and npm's latest version), from the night it was first seen",
    columns: {
      full_name: REPO.full_name,
      source: "github, pypi or npm",
      package: "The registry package; NULL for GitHub",
      version: "Version, or the release tag on GitHub",
      released_at: "When it was published",
      is_prerelease: "A pre-release by its version (PEP 440 or semver: alpha, beta, rc, dev)",
      first_seen: "The night it was first seen",
      node_id: REPO.node_id,
    },
  },
  packages: {
    description: "One row per registry package linked to a tracked repository",
    columns: {
      registry: "pypi, npm, docker or huggingface",
      package: "Package, image or model name",
      full_name: "The repository it belongs to",
      version: "Latest version",
      license: "License the registry states",
      versions_total: "Versions published",
      stable_releases: "Stable versions published",
      prereleases: "Pre-release versions published",
      first_release_at: "First version's date",
      latest_release_at: "Latest version's date",
      downloads_monthly: "Monthly downloads (0 for Docker images); NULL when unknown",
      downloads_weekly: "Weekly downloads",
      pulls_total: "Cumulative pulls (Docker images)",
      likes: "Likes (Hugging Face models)",
      dependencies: "Packages it depends on",
      dependents: "Tracked repositories depending on it",
      deprecated: "Marked deprecated on its registry",
      as_of: "The night its data is from",
      is_stale: "Its data is older than the stale limit (a registry that failed keeps its last row)",
    },
  },
  transitions: {
    description: "Every lifecycle stage change, one row per repository per change",
    columns: {
      ...REPO,
      date: "The night of the change",
      from_stage: "Stage before; NULL when the repository was first staged",
      to_stage: "Stage after",
    },
  },
  posts: {
    description: "Hacker News stories linking tracked repositories, newest first",
    columns: {
      object_id: "Hacker News item id",
      title: "Story title",
      url: "The URL the story links",
      hn_url: "The story on Hacker News",
      full_name: "The repository it links",
      slug: "That repository's slug",
      domain: "That repository's domain",
      points: "Points",
      comments: "Comments",
      author: "Who posted it",
      created_at: "When it was posted",
    },
  },
  papers: {
    description: "arXiv papers linked from tracked repositories or their models",
    columns: {
      arxiv_id: "arXiv id",
      title: "Title",
      authors: "Authors",
      summary: "Abstract",
      published_at: "First version's date",
      updated_at: "Latest version's date",
      primary_category: "Primary arXiv category",
      categories: "All arXiv categories",
      abs_url: "Abstract page",
      pdf_url: "PDF",
      full_names: "Tracked repositories linking it, sorted",
      domains: "Their domains, sorted",
    },
  },
  labs: {
    description: "Organisations (curated labs, and owners with several tracked projects) and their projects",
    columns: {
      slug: "Lab key (GET /api/v1/labs/{slug})",
      name: "Lab name",
      kind: "company, academic or nonprofit (curated labs); github-owner for the others",
      homepage: "Homepage URL",
      owners: "GitHub owners publishing its work",
      source: "curated (data/labs.json) or owner (an owner with several tracked projects)",
      projects: "Tracked projects",
      stars: "Their stars, in total",
      avg_quality_score: "Their average quality score",
      top_domain: "The domain with most of its projects",
      top_project: "Its most-starred project",
    },
  },
  contributors: {
    description: "Contributor counts per repository over time: one row per night GitHub's count was fetched",
    columns: {
      ...REPO,
      date: "The night the count was fetched",
      contributors: "Contributors that night",
    },
  },
};
