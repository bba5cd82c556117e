// GET /badges/{owner}/{repo}.json: the quality badge in shields.io's endpoint schema (schemaVersion, label, message,
// color), for https://img.shields.io/endpoint?url=… and its styles. Public, an hour in any cache, never counted.
import { type BadgeFacts, qualityBadgeText, shieldsEndpointJson, shieldsEndpointSchema } from "../badges.ts";
import { badgeRoute } from "./badge.ts";

export const badgeJsonRoute = badgeRoute({
  name: "badge-json",
  path: "/badges/{owner}/{repo}.json",
  summary: "A repository's quality badge for shields.io (JSON)",
  description:
    'The quality badge as shields.io\'s endpoint badge reads it: {"schemaVersion":1,"label":"AI quality","message":"<score> <tier>","color":"<shields colour name>","cacheSeconds":3600}, "not tracked" in lightgrey for a repository the service does not track. Use it as https://img.shields.io/endpoint?url=<this URL, encoded>&style=<style>.',
  contentType: "application/json; charset=utf-8",
  render: (record) => shieldsEndpointJson(qualityBadgeText(record as BadgeFacts | undefined)),
  schema: shieldsEndpointSchema,
});
