// GET /p/{owner}/{repo}: a project's page for people — score and tier with the breakdown, lifecycle, charts of 90
// nights of stars and downloads, releases, alternatives, the badge snippet, links to the JSON. HTML, no scripts.
import { MAX_TEXT, noParams } from "../../schemas/index.ts";
import type { ProjectDetail } from "../../schemas/project-detail.ts";
import { ownerRepoOfSlug } from "../badges.ts";
import { HTML_TYPE } from "../html.ts";
import { renderProjectPage } from "../pages.ts";
import { HOURLY_PUBLIC, type ViewRoute } from "../route-spec.ts";
import { badgePathParams } from "./badge.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup, projectNotFound } from "./project.ts";

export const projectPageRoute: ViewRoute = {
  name: "project-page",
  method: "GET",
  path: "/p/{owner}/{repo}",
  kind: "view",
  summary: "A project's page for people (HTML)",
  description:
    "The project detail as a page to read: quality score and tier with the four components and their inputs, lifecycle stage, SVG charts of 90 nights of stars and monthly downloads (and by month since the project's first night when the warehouse holds earlier nights: a list's years), releases, alternatives when known, the README badge with its Markdown, and links to the JSON. No scripts; the badges it shows are not counted.",
  tag: "Badges and pages",
  query: noParams,
  // a page for people: the web adds parameters to its links (?utm_source=…), a 422 page helps nobody
  unknownParams: "ignore",
  // a person clicking through pages must not hit the API's quota: pages are public, cached an hour by any cache, and
  // the same data is one request per file a day in the datasets (docs/badges-and-pages.md, "Quotas")
  uncounted: true,
  pathParams: badgePathParams,
  cache: HOURLY_PUBLIC,
  contentType: HTML_TYPE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => projectLookup(`${p.owner}/${p.repo}`),
  render: (record) => (record ? renderProjectPage(record as ProjectDetail) : undefined),
  notFound: projectNotFound,
  // a person who followed a link to a repository not tracked: a search for its name
  errorPage: (p) => [
    {
      href: `/api/v1/projects?q=${encodeURIComponent((p.repo ?? "").slice(0, MAX_TEXT))}`,
      text: `Search the tracked projects for "${(p.repo ?? "").slice(0, MAX_TEXT)}"`,
    },
  ],
  exampleParams: ownerRepoOfSlug,
};
