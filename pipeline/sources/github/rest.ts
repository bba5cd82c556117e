// GitHub REST reads that GraphQL cannot answer cheaply: the contributor count (one request with per_page=1,
// the count is the `last` page number of the Link header) and the weekly commit activity, which GitHub
// computes on demand: a 202 means "ask again later", so pending repositories are asked again after the
// others, for a bounded number of rounds, and whatever is still computing is left for the next night.
// Requests go through the paced REST client (rest-client.ts). Commit activity is asked conditionally (a 304
// costs no rate limit).
import { header } from "../../collect/http-decision.ts";
import type { CollectContext } from "../types.ts";
import { type RestClient, repoUrl } from "./rest-client.ts";
import {
  type CommitActivity,
  commitActivitySchema,
  contributorsSchema,
  countFromLink,
} from "./rest-schemas.ts";

/** A repository's weekly commit statistics, below its REST URL. */
export const STATS_PATH = "/stats/commit_activity";
/** Rounds of asking again for statistics GitHub is still computing, and the pause before each. */
export const ACTIVITY_ROUNDS = 3;
export const ACTIVITY_ROUND_WAIT_MS = 5_000;

export type Activity =
  | { status: "ok"; weeks: CommitActivity }
  | { status: "empty" }
  | { status: "pending" }
  | { status: "gone" }
  | { status: "quarantined" };

/**
 * Contributors of a repository, anonymous ones included, from one request: null when the repository is
 * gone or its answer was quarantined. Not conditional: a 304 would not carry the Link header the count is in.
 */
export async function fetchContributorCount(
  ctx: CollectContext,
  rest: RestClient,
  fullName: string,
): Promise<number | null> {
  const url = `${repoUrl(ctx, fullName)}/contributors?per_page=1&anon=1`;
  const result = await rest.get(url);
  if (result.decision === "skip") return null;
  if (result.status === 204 || result.body === null) return 0;
  const parsed = contributorsSchema.safeParse(result.body);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    return null;
  }
  return countFromLink(header(result.headers, "link"), parsed.data.length);
}

async function askActivity(ctx: CollectContext, rest: RestClient, fullName: string): Promise<Activity> {
  const url = `${repoUrl(ctx, fullName)}${STATS_PATH}`;
  const result = await rest.get(url, { conditional: true, pending: true });
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
  rest: RestClient,
  fullNames: readonly string[],
  rounds = ACTIVITY_ROUNDS,
  waitMs = ACTIVITY_ROUND_WAIT_MS,
): Promise<Map<string, Activity>> {
  const out = new Map<string, Activity>();
  let pending = [...fullNames];
  for (let round = 0; round <= rounds && pending.length > 0; round++) {
    if (round > 0) await ctx.sleep(waitMs);
    const asked = pending;
    const answers = await Promise.all(asked.map((name) => askActivity(ctx, rest, name)));
    pending = [];
    for (const [i, answer] of answers.entries()) {
      const name = asked[i] as string;
      out.set(name, answer);
      if (answer.status === "pending") pending.push(name);
    }
  }
  return out;
}
