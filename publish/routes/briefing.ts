// GET /api/v1/briefings/{slug}: one weekly briefing in full — its text, counts and the facts it is written from
// (movers with their numbers, entrants, stage changes, releases). Unknown slugs are 404, pointing to the list.
import { briefingDetailSchema, noParams, slugPathParams } from "../../schemas/index.ts";
import { ALL_PARTITION, type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const BRIEFING_DETAIL_COLLECTION: CollectionSpec = {
  name: "briefing-detail",
  sql: "briefing_detail",
  record: briefingDetailSchema,
  keys: true,
};

export function briefingNotFound(asked: string): string {
  return `No briefing ${JSON.stringify(asked)}; list the briefings with /api/v1/briefings (or /api/v1/briefings?domain=<domain>) and use a slug from there.`;
}

export const briefingRoute: CollectionRoute = {
  name: "briefing",
  method: "GET",
  path: "/api/v1/briefings/{slug}",
  kind: "item",
  summary: "One briefing in full",
  description:
    "A weekly briefing of a domain: the text, paragraph by paragraph (what rose, shipped, entered, moved and faded — only those with news — then the numbers), the counts, and the facts it is written from: the top movers with their stars and gains, new entrants, changes of lifecycle stage and releases. The slug is <domain>-<ISO year>-w<ISO week>, as listed by /api/v1/briefings.",
  tag: "Digests",
  query: noParams,
  pathParams: slugPathParams,
  cache: NIGHTLY_PRIVATE,
  collection: BRIEFING_DETAIL_COLLECTION,
  lookup: (p) => [{ asked: String(p.slug), partition: ALL_PARTITION, keys: [String(p.slug).toLowerCase()] }],
  exampleParams: (key) => ({ slug: key }),
  notFound: briefingNotFound,
};
