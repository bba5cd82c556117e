// GET /: a short index page linking the docs, the OpenAPI document, the datasets, the status and the feed.
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const homeRoute: FileRoute = {
  name: "home",
  method: "GET",
  path: "/",
  kind: "file",
  summary: "The index page",
  description:
    "What the service is, with links to the docs, the OpenAPI document, the datasets, the status and the feed.",
  tag: "Documents",
  query: noParams,
  // a page for people: the web adds parameters to its links (?utm_source=…), a 422 page helps nobody
  unknownParams: "ignore",
  cache: HOURLY_PUBLIC,
  file: "index.html",
  contentType: "text/html; charset=utf-8",
};
