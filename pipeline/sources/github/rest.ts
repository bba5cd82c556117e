// GitHub REST reads that GraphQL cannot answer cheaply: the contributor count (one request with per_page=1,
// the count is the `last` page number of the Link header) and the weekly commit activity, which GitHub
// computes on demand: a 202 means "ask again later", so pending repositories are asked again after the
// others, for a bounded number of rounds, and whatever is still computing is left for the next night.
// Tokens rotate per request; rate limits (403/429 with retry-after or x-ratelimit-reset) pause the token
// in the shared HTTP client. Commit activity is asked conditionally (a 304 costs no rate limit).
import { header } from "../../core/http-decision.ts";
import type { CollectContext } from "../types.ts";
import { githubTokens } from "./client.ts";
import {
  type CommitActivity,
  commitActivitySchema,
  contributorsSchema,
  countFromLink,
} from "./rest-schemas.ts";

/** REST requests are counted apart from GraphQL ones (HTTP stats, report, budget) under this source name. */
export const REST_SOURCE = "github_rest";

/** Rounds of asking again for statistics GitHub is still computing, and the pause before each. */
export const ACTIVITY_ROUNDS = 3;
export const ACTIVITY_ROUND_WAIT_MS = 5_000;

export type Activity =
  | { status: "ok"; weeks: CommitActivity }
  | { status: "empty" }
  | { status: "pending" }
  | { status: "gone" }
  | { status: "quarantined" };

/** Round-robin over the configured tokens (or the simulator's), as REST Authorization headers. */
export function restTokens(ctx: CollectContext): () => Record<string, string> {
  const tokens = githubTokens(ctx.config.github.tokens, ctx.urls);
  let next = 0;
  return () => ({
    authorization: `token ${tokens[next++ % tokens.length]}`,
    accept: "application/vnd.github+json",
  });
}

/** The REST URL of a repository by its owner/name. */
export const repoUrl = (ctx: CollectContext, fullName: string) =>
  `${ctx.urls.githubRest}/repos/${fullName.split("/").map(encodeURIComponent).join("/")}`;

/**
 * Contributors of a repository, anonymous ones included, from one request: null when the repository is
 * gone or its answer was quarantined. Not conditional: a 304 would not carry the Link header the count is in.
 */
export async function fetchContributorCount(
  ctx: CollectContext,
  auth: () => Record<string, string>,
  fullName: string,
): Promise<number | null> {
  const url = `${repoUrl(ctx, fullName)}/contributors?per_page=1&anon=1`;
  const result = await ctx.http.request(url, { source: REST_SOURCE, headers: auth() });
  if (result.decision === "skip") return null;
  if (result.status === 204 || result.body === null) return 0;
  const parsed = contributorsSchema.safeParse(result.body);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    return null;
  }
  return countFromLink(header(result.headers, "link"), parsed.data.length);
}

async function askActivity(
  ctx: CollectContext,
  auth: () => Record<string, string>,
  fullName: string,
): Promise<Activity> {
  const url = `${repoUrl(ctx, fullName)}/stats/commit_activity`;
  const result = await ctx.http.request(url, {
    source: REST_SOURCE,
    headers: auth(),
    conditional: true,
    pending: true,
  });
  if (result.decision === "pending") return { status: "pending" };
  if (result.decision === "skip") return { status: "gone" };
  if (result.status === 204 || result.body === null) return { status: "empty" };
  const parsed = commitActivitySchema.safeParse(result.body);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    return { status: "quarantined" };
  }
  return { status: "ok", weeks: parsed.data };
}

/** Weekly commit activity of each repository; those still computing after the last round stay "pending". */
export async function fetchCommitActivity(
  ctx: CollectContext,
  auth: () => Record<string, string>,
  fullNames: readonly string[],
  rounds = ACTIVITY_ROUNDS,
  waitMs = ACTIVITY_ROUND_WAIT_MS,
): Promise<Map<string, Activity>> {
  const out = new Map<string, Activity>();
  let pending = [...fullNames];
  for (let round = 0; round <= rounds && pending.length > 0; round++) {
    if (round > 0) await ctx.sleep(waitMs);
    const asked = pending;
    const answers = await Promise.all(asked.map((name) => askActivity(ctx, auth, name)));
    pending = [];
    for (const [i, answer] of answers.entries()) {
      const name = asked[i] as string;
      out.set(name, answer);
      if (answer.status === "pending") pending.push(name);
    }
  }
  return out;
}
