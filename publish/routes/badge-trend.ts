// GET /badges/{owner}/{repo}/trend.svg: stars gained in 7 days and the lifecycle stage, "stars 7d | +1.2k growing",
// coloured by stage; grey "not tracked" for a repository not tracked. Public, an hour in any cache, never counted.
import { noParams } from "../../schemas/index.ts";
import { type BadgeFacts, badgeSvg, ownerRepoOfSlug, trendBadgeText } from "../badges.ts";
import { HOURLY_PUBLIC, type ViewRoute } from "../route-spec.ts";
import { badgePathParams } from "./badge.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

export const badgeTrendRoute: ViewRoute = {
  name: "badge-trend",
  method: "GET",
  path: "/badges/{owner}/{repo}/trend.svg",
  kind: "view",
  summary: "A repository's trend badge (SVG)",
  description:
    'An image for a README: "stars 7d | +<stars gained in 7 days> <lifecycle stage>" (n/a while the count of 7 days ago is unknown), blue while emerging or launching, green growing or established, orange fading, grey dormant; grey "not tracked" for a repository the service does not track.',
  tag: "Badges and pages",
  query: noParams,
  pathParams: badgePathParams,
  cache: HOURLY_PUBLIC,
  contentType: "image/svg+xml",
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => projectLookup(`${p.owner}/${p.repo}`),
  render: (record) => badgeSvg(trendBadgeText(record as BadgeFacts | undefined)),
  uncounted: true,
  exampleParams: ownerRepoOfSlug,
};
