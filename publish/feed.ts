// The Atom 1.0 feed (/api/v1/feed.atom) of lifecycle transitions and new briefings, built with the `feed` library
// from publish/sql/feed_entries.sql. Dated by the run, not the clock, so the same night publishes the same bytes.
import { Feed } from "feed";
import type { Db } from "../core/db.ts";
import { collectionSql } from "./render-collection.ts";

/** The latest lifecycle changes the feed carries (briefings: every domain's this week, where something happened). */
export const FEED_TRANSITIONS = 100;

export interface FeedEntry {
  kind: "transition" | "briefing";
  id: string;
  title: string;
  summary: string;
  path: string;
  date: string;
  category: string | null;
}

export async function feedEntries(db: Db): Promise<FeedEntry[]> {
  return db.all<FeedEntry>(await collectionSql("feed_entries"), { transitions: FEED_TRANSITIONS });
}

export function renderFeed(
  entries: readonly FeedEntry[],
  options: { baseUrl: string; runDate: string },
): string {
  const base = options.baseUrl.replace(/\/+$/, "");
  // tag: URIs (RFC 4151) stay the same whatever host serves the feed later
  const authority = new URL(base).hostname;
  const tag = (id: string) => `tag:${authority},2026:${id}`;
  const feed = new Feed({
    id: tag("feed"),
    title: "Project Intelligence Service: lifecycle changes and briefings",
    description: "Open-source AI projects changing lifecycle stage, and each domain's weekly briefing.",
    link: `${base}/`,
    updated: new Date(`${options.runDate}T00:00:00Z`),
    generator: "projintel",
    feedLinks: { atom: `${base}/api/v1/feed.atom` },
    author: { name: "Project Intelligence Service", link: `${base}/` },
    copyright: "Data under CC BY 4.0; see /#legal",
  });
  for (const entry of entries) {
    feed.addItem({
      id: tag(entry.id),
      title: entry.title,
      link: `${base}${entry.path}`,
      date: new Date(`${entry.date}T00:00:00Z`),
      description: entry.summary,
      category: [{ term: entry.kind }, ...(entry.category ? [{ term: entry.category }] : [])],
    });
  }
  return feed.atom1();
}
