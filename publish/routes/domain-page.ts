// GET /d/{domain}: a domain's leaderboard for people — its best 50 repositories by quality with small trend lines of
// 90 nights of stars. HTML rendered at publish (publish/pages-domain.ts), no scripts.
import { z } from "zod";
import { DOMAINS, domainParam, noParams } from "../../schemas/index.ts";
import { HTML_TYPE } from "../html.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

/** Where publish puts a domain's page in the release (publish/pages-domain.ts). */
export function domainPageFile(domain: string): string {
  return `d/${domain}.html`;
}

export const domainPageRoute: FileRoute = {
  name: "domain-page",
  method: "GET",
  path: "/d/{domain}",
  kind: "file",
  summary: "A domain's leaderboard for people (HTML)",
  description:
    "The domain's 50 best repositories by quality score (then stars), each with score, tier, stars, stars gained in 7 days, lifecycle stage and a trend line of 90 nights of stars, linking to each project's page; links to the JSON list. No scripts.",
  tag: "Badges and pages",
  query: noParams,
  // a page for people: the web adds parameters to its links (?utm_source=…), a 422 page helps nobody
  unknownParams: "ignore",
  pathParams: z
    .strictObject({ domain: domainParam().describe("The domain") })
    .describe("Path parameters of GET /d/{domain}"),
  cache: HOURLY_PUBLIC,
  file: (p) => domainPageFile(String(p.domain)),
  contentType: HTML_TYPE,
  examples: { domain: "agents" },
  // a mistyped domain: every domain's page
  errorPage: () => DOMAINS.map((domain) => ({ href: `/d/${domain}`, text: `${domain} leaderboard` })),
};
