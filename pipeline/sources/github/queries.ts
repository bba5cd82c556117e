// The GraphQL documents sent to GitHub, validated against sim/github/schema.graphql in tests.
// Aliases follow the names used by the recorded real bodies (lastMonth, lastYear, openIssues, closedIssues).
// Cost: only repositoryTopics and releases take `first`; the count-only connections need no page.

/** Repositories created in a range with one topic; 100 per page, the most GitHub returns. */
/** Asked on every call, so the client tracks each token's point budget from GitHub's own accounting. */
const RATE_LIMIT = "rateLimit { cost remaining resetAt limit used }";

export const SEARCH_QUERY = /* GraphQL */ `
  query SearchRepositories($q: String!, $after: String) {
    search(query: $q, type: REPOSITORY, first: 100, after: $after) {
      repositoryCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ... on Repository {
          id
          nameWithOwner
        }
      }
    }
    ${RATE_LIMIT}
  }
`;

/**
 * The facts both refreshes read: scalars (free to count) plus one totalCount connection (watchers), so the
 * light query costs 1 + 100 requests → 1 point per 100 ids. Renames show here: the same id, a new nameWithOwner.
 */
const REPOSITORY_FACTS = /* GraphQL */ `
  fragment RepositoryFacts on Repository {
    id
    nameWithOwner
    name
    owner {
      login
    }
    description
    homepageUrl
    primaryLanguage {
      name
    }
    licenseInfo {
      spdxId
    }
    stargazerCount
    forkCount
    watchers {
      totalCount
    }
    createdAt
    pushedAt
    updatedAt
    isArchived
    isFork
  }
`;

/** Everything raw_github_repos holds, for up to 100 repositories by node id. */
export const DETAILS_QUERY = /* GraphQL */ `${REPOSITORY_FACTS}
  query RepositoryDetails($ids: [ID!]!, $since30: GitTimestamp!, $since90: GitTimestamp!, $since365: GitTimestamp!) {
    nodes(ids: $ids) {
      ... on Repository {
        ...RepositoryFacts
        repositoryTopics(first: 20) {
          nodes {
            topic {
              name
            }
          }
        }
        openIssues: issues(states: OPEN) {
          totalCount
        }
        closedIssues: issues(states: CLOSED) {
          totalCount
        }
        openPullRequests: pullRequests(states: OPEN) {
          totalCount
        }
        mergedPullRequests: pullRequests(states: MERGED) {
          totalCount
        }
        defaultBranchRef {
          name
          target {
            ... on Commit {
              committedDate
              lastMonth: history(since: $since30) {
                totalCount
              }
              lastQuarter: history(since: $since90) {
                totalCount
              }
              lastYear: history(since: $since365) {
                totalCount
              }
            }
          }
        }
        releases(first: 1, orderBy: { field: CREATED_AT, direction: DESC }) {
          totalCount
          nodes {
            tagName
            publishedAt
            createdAt
          }
        }
      }
    }
    ${RATE_LIMIT}
  }
`;

/**
 * The daily light refresh: the facts that change by the day and cost nothing to count (stars, forks, push
 * time, flags, texts) plus one totalCount connection (watchers). 1 + 100 requests → 1 point per 100 ids;
 * a second connection would make it 2. Renames show here too: the same id under a new nameWithOwner.
 */
export const LIGHT_QUERY = /* GraphQL */ `${REPOSITORY_FACTS}
  query RepositoryLight($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Repository {
        ...RepositoryFacts
      }
    }
    ${RATE_LIMIT}
  }
`;

/** Most ids `nodes(ids:)` accepts in one call. */
export const NODES_PER_QUERY = 100;

/** The `since` variables of the details query: 30, 90 and 365 days before the run date, at midnight UTC. */
export function detailsWindows(runDate: string): { since30: string; since90: string; since365: string } {
  const day = Date.parse(`${runDate}T00:00:00Z`);
  const back = (days: number) => `${new Date(day - days * 86_400_000).toISOString().slice(0, 19)}Z`;
  return { since30: back(30), since90: back(90), since365: back(365) };
}
