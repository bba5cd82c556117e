// Pure mapping of a parsed `nodes(ids:)` answer to raw_github_repos rows (pipeline/sql/raw/raw_github_repos.sql).
// A node that is null (deleted, NOT_FOUND), not a repository, or hit by an error inside is left out.
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import type { DetailsResponse, GraphqlError, LightRepository, Repository } from "./schemas.ts";

export type GithubRepoRow = {
  run_date: string;
  node_id: string;
  full_name: string;
  owner: string;
  name: string;
  description: string | null;
  homepage: string | null;
  language: string | null;
  license: string | null;
  topics: string[];
  stars: number;
  forks: number;
  watchers: number;
  open_issues: number;
  closed_issues: number;
  open_prs: number;
  merged_prs: number;
  created_at: string;
  pushed_at: string | null;
  updated_at: string;
  is_archived: boolean;
  is_fork: boolean;
  default_branch: string | null;
  last_commit_at: string | null;
  commits_30d: number;
  commits_90d: number;
  commits_365d: number;
  releases_total: number;
  latest_release_tag: string | null;
  latest_release_at: string | null;
  fetched_at: string;
  /** YYYY-MM-DD of the full refresh the counts come from (run_date for a full row). */
  details_as_of: string;
  refresh_tier: "full" | "light";
};

/** GitHub's licence for "a licence file we could not identify": not an SPDX id, so stored as NULL. */
const NOASSERTION = "NOASSERTION";

/** Indexes of `nodes` that an error points inside: their data is incomplete (null propagated upwards). */
export function damagedNodes(errors: readonly GraphqlError[] | undefined): Set<number> {
  const damaged = new Set<number>();
  for (const error of errors ?? []) {
    const [root, index] = error.path ?? [];
    if (root === "nodes" && typeof index === "number") damaged.add(index);
  }
  return damaged;
}

/** A row from a full answer: the same facts as a light row, with the counts the full query fetched. */
export function repositoryRow(repo: Repository, meta: RowMeta): GithubRepoRow {
  return assembleRow(repo, fullCounts(repo, meta), meta, "full");
}

/** The counts only the full query fetches — what a later light row carries forward. */
function fullCounts(repo: Repository, meta: RowMeta): CarriedValues {
  const head = repo.defaultBranchRef?.target ?? null;
  const latest = repo.releases.nodes[0] ?? null;
  return {
    topics: repo.repositoryTopics.nodes.flatMap((n) => (n ? [n.topic.name] : [])),
    open_issues: repo.openIssues.totalCount,
    closed_issues: repo.closedIssues.totalCount,
    open_prs: repo.openPullRequests.totalCount,
    merged_prs: repo.mergedPullRequests.totalCount,
    default_branch: repo.defaultBranchRef?.name ?? null,
    last_commit_at: utc(head?.committedDate),
    // An empty repository (no default branch) has made no commits.
    commits_30d: head?.lastMonth?.totalCount ?? 0,
    commits_90d: head?.lastQuarter?.totalCount ?? 0,
    commits_365d: head?.lastYear?.totalCount ?? 0,
    releases_total: repo.releases.totalCount,
    latest_release_tag: latest?.tagName ?? null,
    latest_release_at: utc(latest?.publishedAt ?? latest?.createdAt),
    details_as_of: meta.runDate,
  };
}

const isRepository = (node: Repository | Record<string, never> | null): node is Repository =>
  node !== null && "id" in node;

/** Rows for every complete repository node of a details answer, in answer order. */
export function toRows(response: DetailsResponse, meta: RowMeta): GithubRepoRow[] {
  const damaged = damagedNodes(response.errors);
  const nodes = response.data?.nodes ?? [];
  return nodes.flatMap((node, index) =>
    isRepository(node) && !damaged.has(index) ? [repositoryRow(node, meta)] : [],
  );
}

/** The columns a light refresh does not fetch: carried forward from the repository's last full row. */
export const CARRIED_COLUMNS = [
  "topics",
  "open_issues",
  "closed_issues",
  "open_prs",
  "merged_prs",
  "default_branch",
  "last_commit_at",
  "commits_30d",
  "commits_90d",
  "commits_365d",
  "releases_total",
  "latest_release_tag",
  "latest_release_at",
  "details_as_of",
] as const satisfies readonly (keyof GithubRepoRow)[];

export type CarriedValues = Pick<GithubRepoRow, (typeof CARRIED_COLUMNS)[number]>;

/** A row from a light answer: today's cheap facts over the carried-forward counts of the last full row. */
export function lightRow(repo: LightRepository, carried: CarriedValues, meta: RowMeta): GithubRepoRow {
  return assembleRow(repo, carried, meta, "light");
}

/** One row in the DDL's column order: the facts both queries read, and the full-refresh counts. */
function assembleRow(
  repo: LightRepository,
  carried: CarriedValues,
  meta: RowMeta,
  tier: GithubRepoRow["refresh_tier"],
): GithubRepoRow {
  const spdx = repo.licenseInfo?.spdxId ?? null;
  return {
    run_date: meta.runDate,
    node_id: repo.id,
    full_name: repo.nameWithOwner,
    owner: repo.owner.login,
    name: repo.name,
    description: text(repo.description),
    homepage: text(repo.homepageUrl),
    language: repo.primaryLanguage?.name ?? null,
    license: spdx === NOASSERTION ? null : spdx,
    topics: carried.topics,
    stars: repo.stargazerCount,
    forks: repo.forkCount,
    watchers: repo.watchers.totalCount,
    open_issues: carried.open_issues,
    closed_issues: carried.closed_issues,
    open_prs: carried.open_prs,
    merged_prs: carried.merged_prs,
    created_at: utc(repo.createdAt),
    pushed_at: utc(repo.pushedAt),
    updated_at: utc(repo.updatedAt),
    is_archived: repo.isArchived,
    is_fork: repo.isFork,
    default_branch: carried.default_branch,
    last_commit_at: carried.last_commit_at,
    commits_30d: carried.commits_30d,
    commits_90d: carried.commits_90d,
    commits_365d: carried.commits_365d,
    releases_total: carried.releases_total,
    latest_release_tag: carried.latest_release_tag,
    latest_release_at: carried.latest_release_at,
    fetched_at: meta.fetchedAt.toISOString(),
    details_as_of: carried.details_as_of,
    refresh_tier: tier,
  };
}
