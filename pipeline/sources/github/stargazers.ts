// Star history for a newly tracked repository, so its 7- and 30-day star deltas exist from the first night:
// the stargazer list (oldest first, `starred_at` with the star+json media type) is read from its last page
// backwards until a star older than STAR_HISTORY_DAYS shows up, and gives the star count at the start of each
// of those days. GitHub lists at most STARGAZER_LIST_CAP stargazers, so for a repository with more the recent
// ones are out of reach and no history is made; one gaining more than MAX_PAGES × 100 stars in 30 days gets
// only the days its pages reach.
import { z } from "zod";
import { header } from "../../collect/http-decision.ts";
import type { CollectContext, Row, RowMeta } from "../types.ts";
import { type RestClient, repoUrl } from "./rest-client.ts";
import { lastPage } from "./rest-schemas.ts";

/** GitHub stops listing stargazers past this many (page 400 of 100). */
export const STARGAZER_LIST_CAP = 40_000;
/** Pages read backwards from the last one, at most, per repository (page 1 is read first, for the Link). */
export const MAX_PAGES = 5;
/** Days of history made: the counts at the start of each of the STAR_HISTORY_DAYS days before the run date. */
export const STAR_HISTORY_DAYS = 30;
export const STARS_TABLE = "raw_github_stars";
const PER_PAGE = 100;
const DAY_MS = 86_400_000;

const starPageSchema = z.array(z.object({ starred_at: z.iso.datetime({ offset: true }) }));

export interface StarHistory {
  /** Stars listed now (the list's length), when its last page was read. */
  listed: number | null;
  /** The star count at 00:00 UTC of each day the pages read reach, oldest first. */
  days: { day: string; stars: number }[];
  /** REST requests spent. */
  requests: number;
}

/** Whether GitHub lists every stargazer of a repository with this many stars (the recent ones are reachable). */
export const starListReachable = (stars: number) =>
  Math.max(1, Math.ceil(stars / PER_PAGE)) * PER_PAGE < STARGAZER_LIST_CAP;

/**
 * REST requests to reserve for a repository with this many stars: page 1, then the pages from the last one
 * backwards (at most MAX_PAGES), plus one in case the list grew past a page since the stars were counted.
 */
export const starRequestsFor = (stars: number) =>
  Math.min(MAX_PAGES + 1, Math.max(1, Math.ceil(stars / PER_PAGE)) + 1);

/** null when the repository is gone, its list is over the cap, or a page was quarantined. */
export async function fetchStarHistory(
  ctx: CollectContext,
  rest: RestClient,
  fullName: string,
  maxRequests = MAX_PAGES + 1,
  /** Counts every request sent, including those of a history that comes back null. */
  tally: { requests: number } = { requests: 0 },
): Promise<StarHistory | null> {
  const base = `${repoUrl(ctx, fullName)}/stargazers`;
  let requests = 0;
  const read = async (page: number) => {
    const url = `${base}?per_page=${PER_PAGE}&page=${page}`;
    requests++;
    tally.requests++;
    const result = await rest.get(url, { accept: "application/vnd.github.star+json" });
    if (result.decision === "skip") return null;
    const parsed = starPageSchema.safeParse(result.body ?? []);
    if (!parsed.success) {
      await ctx.quarantine(url, result.body, parsed.error);
      return null;
    }
    return { stars: parsed.data, last: lastPage(header(result.headers, "link")) };
  };
  // Page 1 tells how many pages there are (Link rel="last"); then read from the last page backwards.
  const first = await read(1);
  if (!first) return null;
  const last = first.last ?? 1;
  if (last * PER_PAGE >= STARGAZER_LIST_CAP) return null;
  const runDay = Date.parse(`${ctx.runDate}T00:00:00Z`);
  const starts = Array.from(
    { length: STAR_HISTORY_DAYS },
    (_, n) => runDay - (STAR_HISTORY_DAYS - n) * DAY_MS,
  );
  /** Stars read that came on or after each day's start. */
  const since = starts.map(() => 0);
  let listed: number | null = null;
  let oldest = Number.POSITIVE_INFINITY;
  let whole = false;
  for (let page = last; page >= 1 && oldest >= (starts[0] as number); page--) {
    if (page > 1 && requests >= maxRequests) break;
    const answer = page === 1 ? first : await read(page);
    if (!answer) return null;
    if (page === last) listed = (last - 1) * PER_PAGE + answer.stars.length;
    for (const star of answer.stars) {
      const at = Date.parse(star.starred_at);
      oldest = Math.min(oldest, at);
      for (const [n, start] of starts.entries()) if (at >= start) since[n] = (since[n] as number) + 1;
    }
    whole = page === 1;
  }
  // The list is oldest first: once a star older than a day's start is read, every later one has been too.
  const days =
    listed === null
      ? []
      : starts.flatMap((start, n) =>
          whole || oldest < start
            ? [{ day: new Date(start).toISOString().slice(0, 10), stars: listed - (since[n] as number) }]
            : [],
        );
  return { listed, days, requests };
}

/** Pure: one repository's star history to its raw_github_stars rows, one per day reached. */
export function starRows(
  repo: { node_id: string; full_name: string },
  history: Pick<StarHistory, "days">,
  meta: RowMeta,
): Row[] {
  return history.days.map(({ day, stars }) => ({
    run_date: meta.runDate,
    node_id: repo.node_id,
    full_name: repo.full_name,
    day,
    stars,
    fetched_at: meta.fetchedAt.toISOString(),
  }));
}
