// GET /badges/{owner}/{repo}.svg: a repository's README badge, "AI quality | 77 established" coloured by tier, or a
// grey "not tracked" (still 200 and an image, so a README renders). Public, an hour in any cache, never counted.
import { noParams, projectOwnerRepoPathParams } from "../../schemas/index.ts";
import { type BadgeFacts, badgeSvg, ownerRepoOfSlug, qualityBadgeText } from "../badges.ts";
import { HOURLY_PUBLIC, type ViewRoute } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

/** The path parameters of every badge and page of a repository. */
export const badgePathParams = projectOwnerRepoPathParams.describe(
  "Path parameters of a repository's badges and page: owner and repository name as GitHub spells them, any case",
);

export const badgeRoute: ViewRoute = {
  name: "badge",
  method: "GET",
  path: "/badges/{owner}/{repo}.svg",
  kind: "view",
  summary: "A repository's quality badge (SVG)",
  description:
    'An image for a README: "AI quality | <score> <tier>", green for verified and established, yellow for emerging, orange for experimental; a repository the service does not track gets a grey "not tracked" badge (200, so the README still shows an image). Width fitted to the text (11px Verdana), with a <title> for screen readers. Each project detail gives the Markdown to paste (badge_markdown).',
  tag: "Badges and pages",
  query: noParams,
  pathParams: badgePathParams,
  cache: HOURLY_PUBLIC,
  contentType: "image/svg+xml",
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => projectLookup(`${p.owner}/${p.repo}`),
  render: (record) => badgeSvg(qualityBadgeText(record as BadgeFacts | undefined)),
  uncounted: true,
  exampleParams: ownerRepoOfSlug,
};
