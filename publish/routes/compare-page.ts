// GET /compare?projects=a,b,…: 2 to 5 projects side by side for people (HTML, no scripts), drawn by the shim from
// the project detail records; the JSON is /api/v1/compare (compare.ts).
import { COMPARE, compareParams } from "../../schemas/index.ts";
import { renderComparePage } from "../compare-page.ts";
import { HTML_TYPE } from "../html.ts";
import { HOURLY_PUBLIC, type ViewRoute } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

export const comparePageRoute: ViewRoute = {
  name: "compare-page",
  method: "GET",
  path: "/compare",
  kind: "view",
  summary: `${COMPARE.min} to ${COMPARE.max} projects side by side (HTML)`,
  description: `The comparison of /api/v1/compare as a page to read: score and tier, the four components and every input that earned their points, lifecycle, stars and downloads in one table, and 90 nights of stars and of monthly downloads overlaid in one SVG chart each. No scripts. Names not tracked are listed under the table; when none is tracked, 404 (the not-found page for a browser).`,
  tag: "Badges and pages",
  query: compareParams,
  // a page for people: the web adds parameters to its links (?utm_source=…), a 422 page helps nobody
  unknownParams: "ignore",
  // a person clicking through pages must not hit the API's quota: pages are public, cached an hour by any cache, and
  // the same data is one request per file a day in the datasets (docs/badges-and-pages.md, "Quotas")
  uncounted: true,
  cache: HOURLY_PUBLIC,
  contentType: HTML_TYPE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookupAll: (p) => (p.projects as string[]).map(projectLookup),
  renderAll: (found) => renderComparePage(found),
  // none of the names tracked: the not-found page (a page of nothing to compare helps nobody), naming the way on
  notFound: (asked) =>
    `None of these projects is tracked: ${asked}; find each one's slug with /api/v1/projects?q=<name>.`,
  exampleParams: (_key, _partition, keys) => ({ projects: keys.join(",") }),
  // filled from the release like a path parameter (routes-markdown keeps <projects> readable)
  examples: { projects: "<projects>" },
  // a list of the wrong length: home and the docs are the way on
  errorPage: () => [],
};
