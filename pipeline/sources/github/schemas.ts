// zod schemas of GitHub GraphQL answers, at the boundary. Tolerant where GitHub legitimately varies:
// unknown fields are dropped, defaultBranchRef is null for an empty repository, release names may be "",
// `data` may come with `errors` (partial results), and some errors are REST-style {message}.
import { z } from "zod";

const count = z.object({ totalCount: z.number().int().nonnegative() });
/** GitHub's DateTime: ISO 8601 with a zone, e.g. "2019-11-09T06:58:44Z". */
const timestamp = z.iso.datetime({ offset: true });

/** The `rateLimit` field; real recorded bodies sometimes ask only for `remaining`. */
export const rateLimitSchema = z.object({
  cost: z.number().int().optional(),
  remaining: z.number().int(),
  resetAt: timestamp.optional(),
  limit: z.number().int().optional(),
  used: z.number().int().optional(),
});

export const graphqlErrorSchema = z.object({
  type: z.string().optional(),
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
});

/** REST-style error bodies, which GraphQL also sends for 401 and rate limits. */
export const messageBodySchema = z.object({ message: z.string(), documentation_url: z.string().optional() });

/** A GraphQL answer: data (possibly partial, possibly null) and errors. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data: data.nullable().optional(), errors: z.array(graphqlErrorSchema).optional() });
}

export const releaseSchema = z.object({
  tagName: z.string().optional(),
  name: z.string().nullable().optional(),
  publishedAt: timestamp.nullable().optional(),
  createdAt: timestamp.optional(),
});

export const releasesSchema = z.object({
  totalCount: z.number().int().nonnegative(),
  nodes: z.array(releaseSchema.nullable()),
});

/** The head commit. `... on Commit` yields {} when the ref points at another kind of object. */
export const commitSchema = z.object({
  committedDate: timestamp.optional(),
  lastMonth: count.optional(),
  lastQuarter: count.optional(),
  lastYear: count.optional(),
});

/** null for an empty repository (no commits, no branch). */
export const defaultBranchRefSchema = z
  .object({ name: z.string(), target: commitSchema.nullable() })
  .nullable();

export const repositorySchema = z.object({
  id: z.string(),
  nameWithOwner: z.string(),
  name: z.string(),
  owner: z.object({ login: z.string() }),
  description: z.string().nullable(),
  homepageUrl: z.string().nullable(),
  primaryLanguage: z.object({ name: z.string() }).nullable(),
  licenseInfo: z.object({ spdxId: z.string().nullable() }).nullable(),
  repositoryTopics: z.object({
    nodes: z.array(z.object({ topic: z.object({ name: z.string() }) }).nullable()),
  }),
  stargazerCount: z.number().int().nonnegative(),
  forkCount: z.number().int().nonnegative(),
  watchers: count,
  openIssues: count,
  closedIssues: count,
  openPullRequests: count,
  mergedPullRequests: count,
  createdAt: timestamp,
  pushedAt: timestamp.nullable(),
  updatedAt: timestamp,
  isArchived: z.boolean(),
  isFork: z.boolean(),
  defaultBranchRef: defaultBranchRefSchema,
  releases: releasesSchema,
});

/** What the light query asks for (LIGHT_QUERY): scalar facts and one count, 1 point per 100 repositories. */
export const lightRepositorySchema = repositorySchema.pick({
  id: true,
  nameWithOwner: true,
  name: true,
  owner: true,
  description: true,
  homepageUrl: true,
  primaryLanguage: true,
  licenseInfo: true,
  stargazerCount: true,
  forkCount: true,
  watchers: true,
  createdAt: true,
  pushedAt: true,
  updatedAt: true,
  isArchived: true,
  isFork: true,
});

/** An id that resolves to something other than a repository comes back as {} through `... on Repository`. */
const notARepository = z.object({}).strict();

export const detailsResponseSchema = envelope(
  z.object({
    nodes: z.array(z.union([repositorySchema, notARepository]).nullable()),
    rateLimit: rateLimitSchema.nullable().optional(),
  }),
);

/** One node of a details answer: a repository, something else ({}), or null (deleted). */
export const detailsNodeSchema = z.union([repositorySchema, notARepository]).nullable();

/**
 * A details answer with its nodes unchecked: each node is parsed on its own (detailsNodeSchema), so one
 * malformed repository is quarantined and skipped instead of failing the other 99 of its batch.
 */
export const detailsEnvelopeSchema = envelope(
  z.object({ nodes: z.array(z.unknown()), rateLimit: rateLimitSchema.nullable().optional() }),
);

export const searchResponseSchema = envelope(
  z.object({
    search: z.object({
      repositoryCount: z.number().int().nonnegative(),
      pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
      nodes: z.array(
        z.union([z.object({ id: z.string(), nameWithOwner: z.string() }), notARepository]).nullable(),
      ),
    }),
    rateLimit: rateLimitSchema.nullable().optional(),
  }),
);

export type GraphqlError = z.infer<typeof graphqlErrorSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;
export type Repository = z.infer<typeof repositorySchema>;
export type LightRepository = z.infer<typeof lightRepositorySchema>;
export type DetailsResponse = z.infer<typeof detailsResponseSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
