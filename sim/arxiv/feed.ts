// arXiv's Atom feed (GET /arxiv/api/query?id_list=…) for papers of the simulated world, in both recorded
// formats: the old one (http ids, `type="html"` titles, opensearch declared per element) and the 2026 "new
// backend" (https links, plain titles, namespaces on the root). A malformed id answers 400 with an Error entry.
import { formatInstant } from "../dates.ts";
import { stargazerLogin } from "../names.ts";
import { hash32, SALT, unit } from "../random.ts";
import { domainOf, phraseOf } from "../repo-text.ts";
import type { World } from "../world.ts";

export type FeedFormat = "old" | "new";
const ID_PATTERN = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;
const CATEGORIES = ["cs.LG", "cs.CL", "cs.CV", "cs.AI", "stat.ML"];

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function isArxivId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** Instant the paper's first version appeared: the start of its YYMM month plus a few days. */
export function paperPublished(world: World, i: number, id: string): number {
  const year = 2000 + Number(id.slice(0, 2));
  const month = Number(id.slice(2, 4));
  return Date.UTC(year, month - 1, 1) / 86_400_000 + 1 + unit(world.seed, i, SALT.arxiv, 2) * 26;
}

function entry(world: World, i: number, id: string, format: FeedFormat): string {
  const published = formatInstant(paperPublished(world, i, id));
  const version = unit(world.seed, i, SALT.arxiv, 3) < 0.4 ? 2 : 1;
  const scheme = format === "new" ? "https" : "http";
  const title = `${domainOf(world, i).phrases[0]?.replace(/^\w/, (c) => c.toUpperCase())}: ${world.repoName(i)}`;
  const summary = `We present ${world.repoName(i)}: ${phraseOf(world, i)}. We release code at https://github.com/${world.fullName(i)} .`;
  const category = CATEGORIES[hash32(world.seed, i, SALT.arxiv) % CATEGORIES.length] as string;
  const authors = [0, 1, 2]
    .map(
      (k) =>
        `    <author>\n      <name>${stargazerLogin(world.seed, i, 2_000_000 + k)}</name>\n    </author>`,
    )
    .join("\n");
  const abs = `${scheme}://arxiv.org/abs/${id}v${version}`;
  const pdf = `${scheme}://arxiv.org/pdf/${id}v${version}`;
  if (format === "new") {
    return `  <entry>
    <id>http://arxiv.org/abs/${id}v${version}</id>
    <title>${escapeXml(title)}</title>
    <updated>${published}</updated>
    <link href="${abs}" rel="alternate" type="text/html"/>
    <link href="${pdf}" rel="related" type="application/pdf" title="pdf"/>
    <summary>${escapeXml(summary)}</summary>
    <category term="${category}" scheme="http://arxiv.org/schemas/atom"/>
    <published>${published}</published>
    <arxiv:comment>12 pages, 4 figures</arxiv:comment>
    <arxiv:primary_category term="${category}"/>
${authors}
  </entry>`;
  }
  return `  <entry>
    <id>${abs}</id>
    <updated>${published}</updated>
    <published>${published}</published>
    <title>${escapeXml(title)}</title>
    <summary>  ${escapeXml(summary)}
</summary>
${authors}
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages, 4 figures</arxiv:comment>
    <link href="${abs}" rel="alternate" type="text/html"/>
    <link title="pdf" href="${pdf}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="${category}" scheme="http://arxiv.org/schemas/atom"/>
    <category term="${category}" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;
}

export function feed(
  world: World,
  found: { i: number; id: string }[],
  query: { idList: string; max: number },
  now: number,
  format: FeedFormat,
): string {
  const stamp = formatInstant(now);
  const entries = found.map(({ i, id }) => entry(world, i, id, format)).join("\n");
  const q = `search_query=&amp;id_list=${escapeXml(query.idList)}&amp;start=0&amp;max_results=${query.max}`;
  const feedId = (hash32(world.seed, found.length, Math.floor(now)) >>> 0).toString(36);
  if (format === "new") {
    return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/${feedId}</id>
  <title>arXiv Query: ${q}</title>
  <updated>${stamp}</updated>
  <link href="https://arxiv.org/api/query?search_query=&amp;start=0&amp;max_results=${query.max}&amp;id_list=${escapeXml(query.idList)}" type="application/atom+xml"/>
  <opensearch:itemsPerPage>${query.max}</opensearch:itemsPerPage>
  <opensearch:totalResults>${found.length}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
${entries ? `${entries}\n` : ""}</feed>
`;
  }
  const os = 'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"';
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3D%26id_list%3D${encodeURIComponent(query.idList)}%26start%3D0%26max_results%3D${query.max}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: ${q}</title>
  <id>http://arxiv.org/api/${feedId}</id>
  <updated>${stamp.slice(0, 10)}T00:00:00-05:00</updated>
  <opensearch:totalResults ${os}>${found.length}</opensearch:totalResults>
  <opensearch:startIndex ${os}>0</opensearch:startIndex>
  <opensearch:itemsPerPage ${os}>${query.max}</opensearch:itemsPerPage>
${entries ? `${entries}\n` : ""}</feed>
`;
}

/** The 400 body for a malformed id, as recorded (an Atom feed with one entry titled "Error"). */
export function errorFeed(badId: string, now: number): string {
  const stamp = formatInstant(now);
  const anchor = `incorrect_id_format_for_${escapeXml(badId)}`;
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/</id>
  <title>arXiv Search Results</title>
  <updated>${stamp}</updated>
  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>
  <opensearch:totalResults>1</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  <entry>
    <id>https://arxiv.org/api/errors#${anchor}</id>
    <title>Error</title>
    <updated>${stamp}</updated>
    <link href="https://arxiv.org/api/errors#${anchor}" rel="alternate" type="text/html"/>
    <summary>incorrect id format for ${escapeXml(badId)}</summary>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>
</feed>
`;
}
