// zod schemas of the GitHub REST answers the connector reads (and `projintel sources verify` checks against
// the recorded real bodies). Tolerant of a decade of additions: unknown fields are dropped, fields GitHub
// added later (node_id, topics, subscribers_count, …) are optional, null where GitHub sends null.
import { z } from "zod";

const timestamp = z.iso.datetime({ offset: true });

/** GET /repos/{owner}/{repo} */
export const restRepoSchema = z.object({
  id: z.number().int(),
  node_id: z.string().nullable().optional(),
  full_name: z.string(),
  name: z.string(),
  owner: z.object({ login: z.string() }),
  description: z.string().nullable(),
  homepage: z.string().nullable().optional(),
  language: z.string().nullable(),
  license: z.object({ key: z.string(), spdx_id: z.string().nullable().optional() }).nullable().optional(),
  topics: z.array(z.string()).nullable().optional(),
  stargazers_count: z.number().int().nonnegative(),
  forks_count: z.number().int().nonnegative(),
  subscribers_count: z.number().int().nonnegative().optional(),
  open_issues_count: z.number().int().nonnegative(),
  archived: z.boolean().optional(),
  fork: z.boolean(),
  default_branch: z.string().optional(),
  created_at: timestamp,
  pushed_at: timestamp.nullable(),
  updated_at: timestamp,
});

/** GET /repos/{owner}/{repo}/contributors: anonymous contributors (anon=1) have no login. */
export const contributorsSchema = z.array(
  z.object({
    login: z.string().optional(),
    id: z.number().int().optional(),
    type: z.string(),
    contributions: z.number().int().nonnegative(),
  }),
);

/** GET /repos/{owner}/{repo}/releases */
export const restReleasesSchema = z.array(
  z.object({
    tag_name: z.string(),
    name: z.string().nullable(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    created_at: timestamp,
    published_at: timestamp.nullable(),
  }),
);

/** GET /repos/{owner}/{repo}/issues: pull requests come in the same list, marked by `pull_request`. */
export const issuesListSchema = z.array(
  z.object({
    number: z.number().int(),
    state: z.string(),
    user: z.object({ login: z.string() }).nullable(),
    author_association: z.string().optional(),
    comments: z.number().int().nonnegative(),
    created_at: timestamp,
    closed_at: timestamp.nullable(),
    pull_request: z.object({}).loose().optional(),
  }),
);

/** GET /repos/{owner}/{repo}/stats/commit_activity with 200: 52 weeks, oldest first. */
export const commitActivitySchema = z.array(
  z.object({
    total: z.number().int().nonnegative(),
    week: z.number().int(),
    days: z.array(z.number().int().nonnegative()).length(7),
  }),
);

/** The body of a 202 while GitHub computes statistics: `{}` (or nothing at all). */
export const computingSchema = z.union([z.object({}).strict(), z.array(z.never()).length(0)]);

/** GET /search/repositories (node_id arrived in 2017; older answers lack it). */
export const searchRepositoriesSchema = z.object({
  total_count: z.number().int().nonnegative(),
  incomplete_results: z.boolean().optional(),
  items: z.array(
    z.object({
      id: z.number().int(),
      node_id: z.string().optional(),
      full_name: z.string(),
      created_at: timestamp,
    }),
  ),
});

const limitSchema = z.object({
  limit: z.number().int(),
  remaining: z.number().int(),
  reset: z.number().int(),
  used: z.number().int().optional(),
});

/** GET /rate_limit (free of charge). */
export const rateLimitRestSchema = z.object({
  resources: z.object({ core: limitSchema, search: limitSchema, graphql: limitSchema.optional() }).loose(),
  rate: limitSchema,
});

/** Error bodies: {message, documentation_url}. */
export const restErrorSchema = z.object({ message: z.string(), documentation_url: z.string().optional() });

export type RestRepo = z.infer<typeof restRepoSchema>;
export type IssuesList = z.infer<typeof issuesListSchema>;
export type CommitActivity = z.infer<typeof commitActivitySchema>;

/** The URLs of a `Link` header by relation: `<url>; rel="next", <url>; rel="last"`. */
export function parseLink(value: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!value) return links;
  for (const part of value.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part);
    if (match?.[1] && match[2]) for (const rel of match[2].split(/\s+/)) links[rel] = match[1];
  }
  return links;
}

/**
 * How many items a list holds, from its first page fetched with `per_page=1`: the `last` link's page number,
 * or the items on the page when it is the only one. One request counts any list (contributors, stargazers).
 */
export function countFromLink(link: string | undefined, itemsOnPage: number): number {
  const last = parseLink(link).last;
  const page = last ? Number(new URL(last).searchParams.get("page")) : Number.NaN;
  return Number.isInteger(page) && page > 0 ? page : itemsOnPage;
}

/** The `last` page number of a paginated answer, when there are further pages. */
export function lastPage(link: string | undefined): number | undefined {
  const last = parseLink(link).last;
  if (!last) return undefined;
  const page = Number(new URL(last).searchParams.get("page"));
  return Number.isInteger(page) && page > 0 ? page : undefined;
}
