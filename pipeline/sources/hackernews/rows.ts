// Pure mapping of an Algolia search page to raw_hn_posts rows (pipeline/sql/raw/raw_hn_posts.sql): only
// stories whose url points at a tracked GitHub repository.
import { githubRepoOf } from "../pypi/names.ts";
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import type { SearchPage } from "./schemas.ts";

export type HnPostRow = {
  run_date: string;
  object_id: string;
  title: string | null;
  url: string;
  repo_full_name: string;
  points: number;
  num_comments: number;
  created_at: string;
  author: string | null;
  fetched_at: string;
};

/** A page of hits and the tracked repositories (lower-cased owner/name) a story must link to. */
export interface HnPayload {
  page: SearchPage;
  tracked: ReadonlySet<string>;
}

export function toRows({ page, tracked }: HnPayload, meta: RowMeta): HnPostRow[] {
  return page.hits.flatMap((hit) => {
    const repo = hit.url ? githubRepoOf(hit.url) : undefined;
    if (!hit.url || !repo || !tracked.has(repo)) return [];
    return [
      {
        run_date: meta.runDate,
        object_id: hit.objectID,
        title: text(hit.title),
        url: hit.url,
        repo_full_name: repo,
        points: hit.points ?? 0,
        num_comments: hit.num_comments ?? 0,
        created_at: utc(hit.created_at),
        author: text(hit.author),
        fetched_at: meta.fetchedAt.toISOString(),
      },
    ];
  });
}
