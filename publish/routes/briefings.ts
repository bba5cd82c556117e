// GET /api/v1/briefings: the weekly briefings, one per domain and ISO week with news (quiet weeks have none), newest
// first, filtered by domain, paged. Each item's slug leads to its full text at /api/v1/briefings/{slug}.
import { briefingSummarySchema, briefingsParams } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const BRIEFINGS_COLLECTION: CollectionSpec = {
  name: "briefings",
  sql: "briefings",
  record: briefingSummarySchema,
  filters: ["domain"],
};

export const briefingsRoute: CollectionRoute = {
  name: "briefings",
  method: "GET",
  path: "/api/v1/briefings",
  kind: "list",
  summary: "Weekly briefings per domain, newest first",
  description:
    "One briefing per domain and ISO week, written from the data: what rose (stars gained), what shipped (releases), what entered tracking, what changed lifecycle stage and what faded, with the numbers. A week's briefing is rewritten each night of the week, then kept; a week with none of these has no briefing. Newest first, then by domain; domain narrows the list. Each item's slug leads to /api/v1/briefings/{slug}, with the full text and the facts it is written from.",
  tag: "Digests",
  query: briefingsParams,
  cache: NIGHTLY_PRIVATE,
  collection: BRIEFINGS_COLLECTION,
  filters: { domain: "domain" },
  paging: { limit: "limit", offset: "offset" },
  examples: { limit: "10" },
};
