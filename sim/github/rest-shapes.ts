// Small zod shapes of GitHub REST bodies, shared by the simulator's tests: each must accept the recorded
// real bodies in test/fixtures/real/github-rest/ and the simulator's answers alike.
import { z } from "zod";

const stamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const user = z.object({ login: z.string(), id: z.number().int(), type: z.string() });

export const repoShape = z.object({
  id: z.number().int(),
  name: z.string(),
  full_name: z.string(),
  owner: user,
  fork: z.boolean(),
  created_at: stamp,
  updated_at: stamp,
  pushed_at: stamp.nullable(),
  stargazers_count: z.number().int(),
  forks_count: z.number().int(),
  watchers_count: z.number().int(),
  open_issues_count: z.number().int(),
  language: z.string().nullable(),
  size: z.number().int(),
  default_branch: z.string(),
  archived: z.boolean().optional(),
  topics: z.array(z.string()).optional(),
  license: z.object({ key: z.string(), spdx_id: z.string().nullable() }).nullable().optional(),
  subscribers_count: z.number().int().optional(),
});

export const contributorsShape = z.array(user.extend({ contributions: z.number().int().positive() }));

export const issuesShape = z.array(
  z.object({
    number: z.number().int(),
    state: z.enum(["open", "closed"]),
    comments: z.number().int(),
    created_at: stamp,
    updated_at: stamp,
    closed_at: stamp.nullable(),
    user: user,
    pull_request: z.object({ url: z.string() }).optional(),
  }),
);

export const releasesShape = z.array(
  z.object({
    id: z.number().int(),
    tag_name: z.string(),
    name: z.string().nullable(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    created_at: stamp,
    published_at: stamp.nullable(),
  }),
);

export const commitActivityShape = z
  .array(
    z.object({ days: z.array(z.number().int()).length(7), total: z.number().int(), week: z.number().int() }),
  )
  .length(52);

export const searchShape = z.object({
  total_count: z.number().int(),
  incomplete_results: z.boolean().optional(),
  items: z.array(repoShape.extend({ score: z.number() })),
});

const budget = z.object({
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  reset: z.number().int(),
});
export const rateLimitShape = z.object({
  resources: z.object({ core: budget, search: budget, graphql: budget }),
  rate: budget,
});

export const errorShape = z.object({ message: z.string(), documentation_url: z.string().optional() });

/** rel → URL of a `Link` header. */
export function parseLink(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (match) out[match[2] as string] = match[1] as string;
  }
  return out;
}

/** The recorded headers of a fixture as a lower-cased map, with its status. */
export function recordedHeaders(recorded: unknown): { status: number; headers: Map<string, string> } {
  const r = recorded as { status: number; headers: [string, string][] };
  return { status: r.status, headers: new Map(r.headers.map(([k, v]) => [k.toLowerCase(), v])) };
}
