// Issue responsiveness from GitHub REST: the recent issues of a repository (pull requests, which share the
// list, are dropped) and the median hours from opening to the first answer — the first comment or the close,
// whichever came first. An issue closed without comments needs no further request; one with comments costs
// one conditional `comments?per_page=1` (oldest first, so the first comment; its 304 is free the next
// night), at most COMMENT_REQUESTS_PER_REPO per repository. Open issues without comments are unanswered and
// left out of the median.
import { z } from "zod";
import type { CollectContext } from "../types.ts";
import type { RestClient } from "./rest-client.ts";
import { issuesListSchema } from "./rest-schemas.ts";

/** Issues opened in this many days before the run date are sampled. */
export const ISSUE_WINDOW_DAYS = 90;
/** One page of the most recent issues and pull requests. */
export const ISSUES_PER_PAGE = 30;
/** Comment lookups per repository at most: the issue part of the per-repository REST cap. */
export const COMMENT_REQUESTS_PER_REPO = 5;

const HOUR_MS = 3_600_000;
const firstCommentSchema = z.array(z.object({ created_at: z.iso.datetime({ offset: true }) }));

export interface IssueResponse {
  median_hours: number | null;
  sampled: number;
}

/** The median of a non-empty list, or null. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** null when the repository is gone or its issue list was quarantined. */
export async function fetchIssueResponse(
  ctx: CollectContext,
  rest: RestClient,
  repoUrl: string,
): Promise<IssueResponse | null> {
  const since = new Date(Date.parse(`${ctx.runDate}T00:00:00Z`) - ISSUE_WINDOW_DAYS * 86_400_000);
  const url = `${repoUrl}/issues?state=all&since=${since.toISOString().slice(0, 10)}T00:00:00Z&per_page=${ISSUES_PER_PAGE}`;
  // Not conditional: `since` moves every night, so yesterday's ETag is for another URL.
  const result = await rest.get(url);
  if (result.decision === "skip") return null;
  const parsed = issuesListSchema.safeParse(result.body ?? []);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    return null;
  }
  // `since` filters on the last update; only issues opened in the window are sampled.
  const issues = parsed.data.filter((i) => !i.pull_request && Date.parse(i.created_at) >= since.getTime());
  const hours: number[] = [];
  let lookups = 0;
  for (const issue of issues) {
    const created = Date.parse(issue.created_at);
    const closed = issue.closed_at ? Date.parse(issue.closed_at) : Number.POSITIVE_INFINITY;
    let answered = closed;
    if (issue.comments > 0) {
      if (lookups >= COMMENT_REQUESTS_PER_REPO) continue;
      lookups++;
      const first = await firstComment(ctx, rest, `${repoUrl}/issues/${issue.number}/comments?per_page=1`);
      if (first === undefined) continue;
      if (first !== null) answered = Math.min(answered, first);
    }
    if (Number.isFinite(answered)) hours.push((answered - created) / HOUR_MS);
  }
  return { median_hours: median(hours), sampled: hours.length };
}

/** The first comment's time; null when there is none after all, undefined when gone or quarantined. */
async function firstComment(
  ctx: CollectContext,
  rest: RestClient,
  url: string,
): Promise<number | null | undefined> {
  const result = await rest.get(url, { conditional: true });
  if (result.decision === "skip") return undefined;
  const parsed = firstCommentSchema.safeParse(result.body ?? []);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    return undefined;
  }
  const first = parsed.data[0];
  return first ? Date.parse(first.created_at) : null;
}
