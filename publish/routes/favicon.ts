// GET /favicon.ico: the logo again, for browsers, which ask for it on every page they show — JSON responses too.
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";
import { logoRoute } from "./logo.ts";

export const faviconRoute: FileRoute = {
  name: "favicon",
  method: "GET",
  path: "/favicon.ico",
  kind: "file",
  summary: "The service's icon, for browsers",
  description: "The logo of /logo.svg (an SVG image), which browsers show beside the page's title.",
  tag: "Documents",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: logoRoute.file,
  contentType: logoRoute.contentType,
};
