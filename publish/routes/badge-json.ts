// GET /badges/{owner}/{repo}.json: the quality badge in shields.io's endpoint schema (schemaVersion, label, message,
// color), for https://img.shields.io/endpoint?url=… and its styles. Public, an hour in any cache, never counted.
import { noParams } from "../../schemas/index.ts";
import {
  type BadgeFacts,
  ownerRepoOfSlug,
  qualityBadgeText,
  shieldsEndpointJson,
  shieldsEndpointSchema,
} from "../badges.ts";
import { HOURLY_PUBLIC, type ViewRoute } from "../route-spec.ts";
import { badgePathParams } from "./badge.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

export const badgeJsonRoute: ViewRoute = {
  name: "badge-json",
  method: "GET",
  path: "/badges/{owner}/{repo}.json",
  kind: "view",
  summary: "A repository's quality badge for shields.io (JSON)",
  description:
    'The quality badge as shields.io\'s endpoint badge reads it: {"schemaVersion":1,"label":"AI quality","message":"<score> <tier>","color":"<shields colour name>","cacheSeconds":3600}, "not tracked" in lightgrey for a repository the service does not track. Use it as https://img.shields.io/endpoint?url=<this URL, encoded>&style=<style>.',
  tag: "Badges and pages",
  query: noParams,
  pathParams: badgePathParams,
  cache: HOURLY_PUBLIC,
  contentType: "application/json; charset=utf-8",
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => projectLookup(`${p.owner}/${p.repo}`),
  render: (record) => shieldsEndpointJson(qualityBadgeText(record as BadgeFacts | undefined)),
  uncounted: true,
  schema: shieldsEndpointSchema,
  exampleParams: ownerRepoOfSlug,
};
