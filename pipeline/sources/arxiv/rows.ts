// Pure mapping of a parsed arXiv feed to raw_arxiv_papers rows (pipeline/sql/raw/raw_arxiv_papers.sql),
// each paper carrying the tracked repositories that link to it.
import type { RowMeta } from "../types.ts";
import { utc } from "../values.ts";
import type { ArxivFeed } from "./feed.ts";
import { entryId } from "./ids.ts";

export type ArxivPaperRow = {
  run_date: string;
  arxiv_id: string;
  version: number | null;
  repo_full_names: string[];
  title: string;
  summary: string;
  authors: string[];
  published_at: string;
  updated_at: string;
  primary_category: string | null;
  categories: string[];
  abs_url: string | null;
  pdf_url: string | null;
  doi: string | null;
  comment: string | null;
  fetched_at: string;
};

/** A feed and, for each versionless id, the repositories (lower-cased owner/name) that link to it. */
export interface ArxivPayload {
  feed: ArxivFeed;
  reposById: Readonly<Record<string, readonly string[]>>;
}

export function toRows({ feed, reposById }: ArxivPayload, meta: RowMeta): ArxivPaperRow[] {
  return feed.entries.map((entry) => {
    const { id, version } = entryId(entry.id);
    return {
      run_date: meta.runDate,
      arxiv_id: id,
      version,
      repo_full_names: [...(reposById[id] ?? [])].sort(),
      title: entry.title,
      summary: entry.summary,
      authors: entry.authors,
      published_at: utc(entry.published),
      updated_at: utc(entry.updated),
      primary_category: entry.primaryCategory,
      categories: entry.categories,
      abs_url: entry.links.find((l) => l.rel === "alternate")?.href ?? null,
      pdf_url: entry.links.find((l) => l.title === "pdf")?.href ?? null,
      doi: entry.doi,
      comment: entry.comment,
      fetched_at: meta.fetchedAt.toISOString(),
    };
  });
}
