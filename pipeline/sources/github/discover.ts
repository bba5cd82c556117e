// Discovery: GraphQL search for `topic:<t> created:<from>..<to>` per topic and `"<k>" in:name,description
// created:<from>..<to>` per keyword. GitHub returns at most 1,000 results per search, so a range with more is
// split in halves (by days, then by seconds) until each part fits. Every searched range is saved as a batch,
// so a resumed run replays discovery without a request.
import { AppError } from "../../../core/errors.ts";
import type { CollectContext, ResumedBatch } from "../types.ts";
import type { GithubClient } from "./client.ts";
import { SEARCH_QUERY } from "./queries.ts";
import { searchResponseSchema } from "./schemas.ts";
import type { SearchTerm } from "./topics.ts";

/** GitHub search returns at most this many results for one query, however many match. */
export const SEARCH_RESULT_CAP = 1000;
/** Searches start here: GitHub opened in 2008 and the oldest public repositories date from late 2007. */
export const HISTORY_START = "2007-10-01";

const DAY = 86_400;

/** A creation range for one search term, in epoch seconds, both ends included. */
export interface Slice {
  term: SearchTerm;
  from: number;
  to: number;
}

export type DiscoveryRow = { node_id: string; full_name: string } | { split: true; repository_count: number };

const dayAligned = (s: Slice) => s.from % DAY === 0 && (s.to + 1) % DAY === 0;
const iso = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 19);

/**
 * What a term searches: a topic, or a phrase in names and descriptions only (GitHub's default also
 * searches topics and READMEs: the topics are searched on their own, and a README match is too loose).
 */
export function termQuery(term: SearchTerm): string {
  return term.kind === "topic" ? `topic:${term.value}` : `"${term.value}" in:name,description`;
}

/** A term's key for its weekly sweep phase: a topic as itself, a keyword quoted so it never equals a topic. */
export const termKey = (term: SearchTerm) => (term.kind === "topic" ? term.value : `"${term.value}"`);

/**
 * The search string. Whole days are written as dates (inclusive). Parts of days are written as UTC
 * date-times with the end one second past the range: GitHub reads both ends inclusively, the simulator the
 * end exclusively; either way nothing between two neighbouring ranges is missed (a repeat is de-duplicated).
 * `fork:true` includes forks, which GitHub search leaves out by default.
 */
export function sliceQuery(s: Slice): string {
  const range = dayAligned(s)
    ? `${iso(s.from).slice(0, 10)}..${iso(s.to).slice(0, 10)}`
    : `${iso(s.from)}Z..${iso(s.to + 1)}Z`;
  return `${termQuery(s.term)} fork:true created:${range}`;
}

/**
 * The batch id of a searched range, e.g. search.rag.20071001-20260301 for a topic and
 * search.keyword.vector_database.20071001-20260301 for a keyword (four parts, so never a topic's id).
 */
export function sliceId(s: Slice): string {
  const stamp = (sec: number) =>
    dayAligned(s)
      ? iso(sec).slice(0, 10).replaceAll("-", "")
      : iso(sec).replaceAll("-", "").replaceAll(":", "");
  const name =
    s.term.kind === "topic"
      ? s.term.value.replace(/[^a-z0-9-]/g, "_")
      : `keyword.${s.term.value.replace(/[^a-z0-9]+/g, "_")}`;
  return `search.${name}.${stamp(s.from)}-${stamp(s.to)}`;
}

/** The two halves of a range: split at a day boundary while it spans days, else at the middle second. */
export function splitSlice(s: Slice): [Slice, Slice] | undefined {
  if (s.from >= s.to) return undefined;
  const days = (s.to + 1 - s.from) / DAY;
  const mid =
    dayAligned(s) && days >= 2 ? s.from + Math.floor(days / 2) * DAY - 1 : Math.floor((s.from + s.to) / 2);
  return [
    { ...s, to: mid },
    { ...s, from: mid + 1 },
  ];
}

/** The whole history of a term up to the end of the run date, or from `since` (YYYY-MM-DD) on. */
export function fullRange(term: SearchTerm, runDate: string, since = HISTORY_START): Slice {
  return {
    term,
    from: Date.parse(`${since}T00:00:00Z`) / 1000,
    to: Date.parse(`${runDate}T00:00:00Z`) / 1000 + DAY - 1,
  };
}

async function searchPage(client: GithubClient, q: string, after: string | null) {
  const answer = await client.query(SEARCH_QUERY, { q, after }, searchResponseSchema);
  const search = answer.data?.search;
  if (!search || (answer.errors?.length ?? 0) > 0) {
    throw new AppError(`GitHub search "${q}" failed: ${answer.errors?.[0]?.message ?? "no data returned"}.`, {
      kind: "transient",
      hint: "GitHub search answered with errors; run again later (finished ranges are kept).",
    });
  }
  return search;
}

/**
 * Yields one batch per searched range (bookkeeping, not loaded) and adds every repository found to `found`
 * (node id → owner/name), de-duplicated across terms.
 */
export async function* discover(
  ctx: CollectContext,
  client: GithubClient,
  terms: readonly SearchTerm[],
  found: Map<string, string>,
  /** Where each term's search starts (YYYY-MM-DD); the whole history when it answers undefined. */
  since: (term: SearchTerm) => string | undefined = () => undefined,
): AsyncGenerator<{ id: string; rows: DiscoveryRow[] } | ResumedBatch> {
  for (const term of terms) {
    const pending: Slice[] = [fullRange(term, ctx.runDate, since(term))];
    for (let slice = pending.pop(); slice; slice = pending.pop()) {
      const id = sliceId(slice);
      let rows: DiscoveryRow[];
      if (await ctx.batches.has("github", id)) {
        rows = await ctx.batches.read<DiscoveryRow>("github", id);
        yield { id, resumed: true };
      } else {
        const q = sliceQuery(slice);
        let page = await searchPage(client, q, null);
        const total = page.repositoryCount;
        if (total > SEARCH_RESULT_CAP && splitSlice(slice)) {
          rows = [{ split: true, repository_count: total }];
        } else {
          rows = [];
          for (;;) {
            for (const node of page.nodes)
              if (node && "id" in node) rows.push({ node_id: node.id, full_name: node.nameWithOwner });
            if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || rows.length >= SEARCH_RESULT_CAP)
              break;
            page = await searchPage(client, q, page.pageInfo.endCursor);
          }
          if (total > rows.length && total > SEARCH_RESULT_CAP) {
            ctx.logger.warn("github: search range still over the result cap", {
              q,
              total,
              kept: rows.length,
            });
            ctx.count("skipped", total - rows.length);
          }
        }
        yield { id, rows };
      }
      const first = rows[0];
      if (first && "split" in first) {
        const halves = splitSlice(slice);
        if (halves) pending.push(halves[1], halves[0]);
        continue;
      }
      for (const row of rows) if ("node_id" in row) found.set(row.node_id, row.full_name);
    }
  }
}
