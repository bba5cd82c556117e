// Star history for a newly tracked repository, so its 7- and 30-day star deltas exist from the first night:
// the stargazer list (oldest first, `starred_at` with the star+json media type) is read from its last page
// backwards until a star older than 30 days shows up. GitHub lists at most STARGAZER_LIST_CAP stargazers,
// so for a repository with more the recent ones are out of reach and no history is made; a repository
// gaining more than MAX_PAGES × 100 stars in 30 days gets only the 7-day figure when that fits.
import { z } from "zod";
import { header } from "../../core/http-decision.ts";
import type { CollectContext } from "../types.ts";
import { REST_SOURCE } from "./rest.ts";
import { lastPage } from "./rest-schemas.ts";

/** GitHub stops listing stargazers past this many (page 400 of 100). */
export const STARGAZER_LIST_CAP = 40_000;
/** Pages read per repository at most: the bootstrap's REST budget. */
export const MAX_PAGES = 5;
const PER_PAGE = 100;

const starPageSchema = z.array(z.object({ starred_at: z.iso.datetime({ offset: true }) }));

export interface StarHistory {
  /** Stars listed now (the list's length). */
  listed: number;
  /** Stars listed 7 and 30 days before the run date; null when the pages read did not reach that far. */
  stars_7d_ago: number | null;
  stars_30d_ago: number | null;
  /** REST requests spent. */
  requests: number;
}

/** null when the repository is gone, its list is over the cap, or a page was quarantined. */
export async function fetchStarHistory(
  ctx: CollectContext,
  auth: () => Record<string, string>,
  fullName: string,
): Promise<StarHistory | null> {
  const base = `${ctx.urls.githubRest}/repos/${fullName.split("/").map(encodeURIComponent).join("/")}/stargazers`;
  const headers = { ...auth(), accept: "application/vnd.github.star+json" };
  let requests = 0;
  const read = async (page: number) => {
    const url = `${base}?per_page=${PER_PAGE}&page=${page}`;
    requests++;
    const result = await ctx.http.request(url, { source: REST_SOURCE, headers });
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
  const day = Date.parse(`${ctx.runDate}T00:00:00Z`);
  const cut7 = day - 7 * 86_400_000;
  const cut30 = day - 30 * 86_400_000;
  let listed = 0;
  let newer7 = 0;
  let newer30 = 0;
  let reached7 = false;
  let reached30 = false;
  for (let page = last; page >= 1 && !reached30 && requests <= MAX_PAGES; page--) {
    const answer = page === 1 ? first : await read(page);
    if (!answer) return null;
    if (page === last) listed = (last - 1) * PER_PAGE + answer.stars.length;
    for (const star of [...answer.stars].reverse()) {
      const at = Date.parse(star.starred_at);
      if (at >= cut7) newer7++;
      else reached7 = true;
      if (at >= cut30) newer30++;
      else reached30 = true;
    }
    // Past the first page there is nothing older: every star counted is within the window.
    if (page === 1) reached7 = reached30 = true;
  }
  return {
    listed,
    stars_7d_ago: reached7 ? listed - newer7 : null,
    stars_30d_ago: reached30 ? listed - newer30 : null,
    requests,
  };
}
