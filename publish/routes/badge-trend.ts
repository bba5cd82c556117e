// GET /badges/{owner}/{repo}/trend.svg: stars gained in 7 days and the lifecycle stage, "stars 7d | +1.2k growing",
// coloured by stage; grey "not tracked" for a repository not tracked. Public, an hour in any cache, never counted.
import { type BadgeFacts, badgeSvg, trendBadgeText } from "../badges.ts";
import { badgeQuery, badgeRoute } from "./badge.ts";

export const badgeTrendRoute = badgeRoute({
  name: "badge-trend",
  path: "/badges/{owner}/{repo}/trend.svg",
  summary: "A repository's trend badge (SVG)",
  description:
    'An image for a README: "stars 7d | +<stars gained in 7 days> <lifecycle stage>" (n/a while the count of 7 days ago is unknown), blue while emerging or launching, green growing or established, orange fading, grey dormant; grey "not tracked" for a repository the service does not track. Takes shields.io\'s style and label as the quality badge does.',
  contentType: "image/svg+xml",
  query: badgeQuery,
  render: (record, params) => badgeSvg(trendBadgeText(record as BadgeFacts | undefined), params),
});
