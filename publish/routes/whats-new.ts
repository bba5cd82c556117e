// GET /api/v1/whats-new: the digest of the last `days` days (1 to 30) — releases, trending projects and top Hacker
// News posts — as one typed list, newest first, filtered by kind and domain, paged. One rendered list answers every
// look-back: each item's rank is its age in days, and the shim keeps the ranks below `days`.
import { WHATS_NEW_DAYS, WHATS_NEW_KINDS, whatsNewItemSchema, whatsNewParams } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE, type RankRange } from "../route-spec.ts";

export const WHATS_NEW_COLLECTION: CollectionSpec = {
  name: "whats-new",
  sql: "whats_new",
  record: whatsNewItemSchema,
  filters: ["kind", "domain"],
  rank: { order: "asc" },
};

/** "The last N days" is an age below N days (ds_whats_new: date > run_date - N). */
export function lastDays(params: { days?: number }): RankRange {
  return params.days === undefined ? {} : { max: params.days - 1 };
}

export const whatsNewRoute: CollectionRoute = {
  name: "whats-new",
  method: "GET",
  path: "/api/v1/whats-new",
  kind: "list",
  summary: "What's new: recent releases, trending projects and top Hacker News posts",
  description: `The digest of the last days (${WHATS_NEW_DAYS.min} to ${WHATS_NEW_DAYS.max}, default ${WHATS_NEW_DAYS.default}) as one list of typed items, newest day first; within a day ${WHATS_NEW_KINDS.join(", ")}, each by its weight (a post's points, a release's project stars, a trending project's stars gained) descending, then the project's stars. release: a new version of a tracked project (pre-releases left out; the same version on GitHub and a registry is one item). trending: the projects gaining the most stars in 7 days, dated the data's night. post: a Hacker News story linking a tracked project with the points the methodology asks for. kind and domain narrow the list; each item's slug leads to /api/v1/projects/{slug}.`,
  tag: "Digests",
  query: whatsNewParams,
  cache: NIGHTLY_PRIVATE,
  collection: WHATS_NEW_COLLECTION,
  filters: { kind: "kind", domain: "domain" },
  range: lastDays,
  paging: { limit: "limit", offset: "offset" },
  examples: { days: "30", limit: "10" },
};
