// GET /docs: the API reference page, rendered from the OpenAPI document at publish time (no scripts from elsewhere).
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const docsRoute: FileRoute = {
  name: "docs",
  method: "GET",
  path: "/docs",
  kind: "file",
  summary: "The API reference page",
  description:
    "Every endpoint of the OpenAPI document with its parameters, examples, response fields and errors.",
  tag: "Documents",
  query: noParams,
  // a page for people: the web adds parameters to its links (?utm_source=…), a 422 page helps nobody
  unknownParams: "ignore",
  cache: HOURLY_PUBLIC,
  file: "docs/index.html",
  contentType: "text/html; charset=utf-8",
};
