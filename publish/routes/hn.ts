// GET /api/v1/hn: Hacker News stories linking tracked AI projects over the last `days` days, newest first, with
// points, comments and the linked project, paged. Each story's rank is its age in days; the shim keeps those below `days`.
import { HN_DAYS, hnParams, hnPostSchema } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { lastDays } from "./whats-new.ts";

export const HN_COLLECTION: CollectionSpec = {
  name: "hn",
  sql: "hn",
  record: hnPostSchema,
  rank: { order: "asc" },
};

export const hnRoute: CollectionRoute = {
  name: "hn",
  method: "GET",
  path: "/api/v1/hn",
  kind: "list",
  summary: "Hacker News posts about tracked AI projects, newest first",
  description: `Hacker News stories linking a tracked repository, posted in the last days (${HN_DAYS.min} to ${HN_DAYS.max}, default ${HN_DAYS.default}), newest first: title, the linked URL, the discussion, points, comments, author, time and the tracked project with its stars today. Newest first rather than by points, so a new story is seen while it is discussed; /api/v1/whats-new lists the best-scored ones beside releases and trending projects.`,
  tag: "Digests",
  query: hnParams,
  cache: NIGHTLY_PRIVATE,
  collection: HN_COLLECTION,
  range: lastDays,
  paging: { limit: "limit", offset: "offset" },
  examples: { days: "30", limit: "10" },
};
