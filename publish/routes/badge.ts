// GET /badges/{owner}/{repo}.svg: a repository's README badge, "AI quality | 77 established" coloured by tier, or a
// grey "not tracked" (still 200 and an image, so a README renders). Public, an hour in any cache, never counted.
// Also what every badge route shares (badgeRoute): the trend and shields.io badges are built from it too.
import { z } from "zod";
import { enumParam, noParams, projectOwnerRepoPathParams, textParam } from "../../schemas/index.ts";
import { BADGE_STYLES, type BadgeFacts, badgeSvg, ownerRepoOfSlug, qualityBadgeText } from "../badges.ts";
import { HOURLY_PUBLIC, type RecordView } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

/** The path parameters of every badge and page of a repository. */
export const badgePathParams = projectOwnerRepoPathParams.describe(
  "Path parameters of a repository's badges and page: owner and repository name as GitHub spells them, any case",
);

/** Longest `label` of a badge: longer would not fit a README's line anyway. */
const MAX_BADGE_LABEL = 40;

/** The query of an SVG badge: shields.io's `style` and `label`, so a README can match its other badges. */
export const badgeQuery = z
  .strictObject({
    style: enumParam(BADGE_STYLES).optional().describe("The badge's look, as on shields.io (default flat)"),
    label: textParam(MAX_BADGE_LABEL)
      .optional()
      .describe('The left-hand text instead of the badge\'s own ("AI quality")'),
  })
  .describe("Query parameters of an SVG badge: shields.io's style and label; any other parameter is ignored");

/** The fields a badge route chooses; the rest are the same for every badge (no query unless it sets one). */
export type BadgeRouteSpec = Pick<
  RecordView,
  "name" | "path" | "summary" | "description" | "contentType" | "render" | "schema"
> &
  Partial<Pick<RecordView, "query">>;

/**
 * A badge of a repository: its path parameters (owner and name, any case), its record (the project detail), an hour
 * in any cache, never counted against a quota, examples read from the release. A badge route adds only its path,
 * words, format and how it is drawn from the record (undefined when the repository is not tracked).
 */
export function badgeRoute(spec: BadgeRouteSpec): RecordView {
  return {
    method: "GET",
    kind: "view",
    tag: "Badges and pages",
    query: noParams,
    ...spec,
    // a README's cache-buster (?v=2) or a proxy's parameters must not turn the image into a 422
    unknownParams: "ignore",
    pathParams: badgePathParams,
    cache: HOURLY_PUBLIC,
    collection: PROJECT_DETAIL_COLLECTION,
    lookup: (p) => projectLookup(`${p.owner}/${p.repo}`),
    uncounted: true,
    exampleParams: ownerRepoOfSlug,
  };
}

export const qualityBadgeRoute = badgeRoute({
  name: "badge",
  path: "/badges/{owner}/{repo}.svg",
  summary: "A repository's quality badge (SVG)",
  description:
    'An image for a README: "AI quality | <score> <tier>", green for verified and established, yellow for emerging, orange for experimental; a repository the service does not track gets a grey "not tracked" badge (200, so the README still shows an image). Width fitted to the text (11px Verdana), with a <title> for screen readers. shields.io\'s style (flat, flat-square, for-the-badge, plastic, social) and label are taken; other query parameters (a cache-buster such as v=2) are ignored. Each project detail gives the Markdown to paste (badge_markdown).',
  contentType: "image/svg+xml",
  query: badgeQuery,
  render: (record, params) => badgeSvg(qualityBadgeText(record as BadgeFacts | undefined), params),
});
