// The Hacker News connector: stories linking to github.com from Algolia's search_by_date, one batch per
// day of the look-back window, kept when they link to a tracked repository (raw_hn_posts).
import type { BatchItem, CollectContext, RawTable, Source } from "../types.ts";
import { inOrder } from "../window.ts";
import { type HnPayload, type HnPostRow, toRows } from "./rows.ts";
import { type SearchPage, searchSchema } from "./schemas.ts";

const TABLE = "raw_hn_posts" satisfies RawTable;
/** Days of stories collected each night: points and comments of a story settle within about a month. */
export const LOOKBACK_DAYS = 30;
export const HITS_PER_PAGE = 100;
/** Algolia serves at most this many hits of one query through paging; larger windows are split. */
export const REACHABLE_HITS = 1000;
const DAY_S = 86_400;

export const batchId = (day: string) => `${TABLE}.${day}`;

/** The days of the window, oldest first, ending the day before the run date (YYYY-MM-DD). */
export function windowDays(runDate: string, days = LOOKBACK_DAYS): string[] {
  const end = Date.parse(`${runDate}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - i) * DAY_S * 1000).toISOString().slice(0, 10),
  );
}

export function searchUrl(base: string, since: number, until: number, page: number): string {
  const filters = encodeURIComponent(`created_at_i>=${since},created_at_i<${until}`);
  return `${base}/api/v1/search_by_date?query=github.com&tags=story&numericFilters=${filters}&hitsPerPage=${HITS_PER_PAGE}&page=${page}`;
}

/** A day's pages, and whether one of them was malformed (then the day is deferred, not saved half-read). */
interface DayRead {
  malformed: boolean;
}

async function fetchPage(ctx: CollectContext, url: string, day: DayRead): Promise<SearchPage | undefined> {
  const result = await ctx.http.request(url, { source: "hackernews" });
  if (result.decision === "skip") return undefined;
  const parsed = searchSchema.safeParse(result.body);
  if (!parsed.success) {
    await ctx.quarantine(url, result.body, parsed.error);
    day.malformed = true;
    return undefined;
  }
  return parsed.data;
}

/** Every page of [since, until); halves the window while it holds more hits than paging reaches. */
async function storiesIn(
  ctx: CollectContext,
  since: number,
  until: number,
  tracked: HnPayload["tracked"],
  day: DayRead,
): Promise<HnPostRow[]> {
  const base = ctx.urls.hackernews;
  const meta = { runDate: ctx.runDate, fetchedAt: ctx.clock.now() };
  const first = await fetchPage(ctx, searchUrl(base, since, until, 0), day);
  if (!first) return [];
  if (first.nbHits > REACHABLE_HITS && until - since > 1) {
    const middle = since + Math.floor((until - since) / 2);
    return [
      ...(await storiesIn(ctx, since, middle, tracked, day)),
      ...(await storiesIn(ctx, middle, until, tracked, day)),
    ];
  }
  const rows = toRows({ page: first, tracked }, meta);
  for (let page = 1; page < first.nbPages; page++) {
    const next = await fetchPage(ctx, searchUrl(base, since, until, page), day);
    if (next) rows.push(...toRows({ page: next, tracked }, meta));
  }
  // A story posted while paging moves later pages by one; keep one row per story, oldest first.
  const unique = [...new Map(rows.map((r) => [r.object_id, r])).values()];
  return unique.sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.object_id.localeCompare(b.object_id),
  );
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const tracked = new Set(ctx.repos.map((r) => r.full_name.toLowerCase()));
  yield* inOrder(windowDays(ctx.runDate), 2, async (day): Promise<BatchItem> => {
    const id = batchId(day);
    if (await ctx.batches.has("hackernews", id)) return { id, resumed: true };
    const since = Date.parse(`${day}T00:00:00Z`) / 1000;
    const read: DayRead = { malformed: false };
    const rows = await storiesIn(ctx, since, since + DAY_S, tracked, read);
    // Saving a day with a page missing would hide its stories for the whole run; the next invocation retries.
    if (read.malformed)
      return { id, deferred: true, reason: `a search page of ${day} was malformed (quarantined)` };
    return { id, table: TABLE, rows };
  });
}

export const hackernews: Source<HnPayload> = {
  name: "hackernews",
  tables: [TABLE],
  needs: ["github"],
  collect,
  toRows,
};
