// The index page (/): what the service is, where its documents are (docs, OpenAPI, datasets, status, feed,
// manifest), a few requests to try against this release, and the terms under which the data is offered.
import { escapeHtml, page } from "./html.ts";
import type { OpenApiDocument } from "./openapi.ts";

export interface HomeFacts {
  runDate: string;
  projects: number;
  domains: number;
}

/** Operations whose example requests the page offers first, by operationId. */
const FEATURED = ["quality", "trending", "projects", "project", "whatsNew", "briefings", "transitions"];

export function renderHomePage(doc: OpenApiDocument, facts: HomeFacts): string {
  const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
  const tries = FEATURED.flatMap((id) => {
    const op = operations.find((o) => o.operationId === id);
    const url = op?.["x-example-request"];
    return op && url
      ? [
          `<li><a href="${escapeHtml(url)}"><code>GET ${escapeHtml(url)}</code></a> — ${escapeHtml(op.summary)}</li>`,
        ]
      : [];
  }).join("");
  const body = `<header><h1>Project Intelligence Service</h1>
<p>Which of the open-source AI projects are healthy, rising or fading: quality scores, star velocity, lifecycle
stages, details, digests and datasets, refreshed every night. This release covers
<strong>${facts.projects.toLocaleString("en-US")}</strong> projects in ${facts.domains} domains, as of ${escapeHtml(facts.runDate)}.</p></header>
<main>
<h2>Start here</h2>
<ul>
<li><a href="/docs">API reference</a> — every endpoint with its parameters, examples and fields</li>
<li><a href="/api/v1/openapi.json">OpenAPI document</a> (3.1, version ${escapeHtml(String((doc.info as { version: string }).version))})</li>
<li><a href="/api/v1/datasets">Datasets</a> — Parquet and Arrow snapshots for analysts</li>
<li><a href="/api/v1/status">Status</a> — tables, counts, domains and how fresh each source is</li>
<li><a href="/api/v1/feed.atom">Atom feed</a> — lifecycle changes and weekly briefings</li>
<li><a href="/.well-known/ai-plugin.json">AI plugin manifest</a> — for agents</li>
</ul>
<h2>Try it</h2>
<ul>${tries}</ul>
<p>No key is needed: anonymous callers get 100 requests a day. <code>POST /api/v1/keys</code> gives a free key of
1,000 a day (10,000 with an e-mail address); send it as <code>Authorization: Bearer pis_…</code>.</p>
<h2 id="legal">Terms</h2>
<p>The service is free. The code is under the Apache License 2.0; the scores, classifications and derived data are
offered under CC BY 4.0 — cite "Project Intelligence Service". Repository facts come from the public APIs of GitHub,
PyPI, npm, Docker Hub, the Hugging Face Hub, Hacker News and arXiv, under their own terms. Scores are computed by the
published <a href="/api/v1/methodology">methodology</a> and are not endorsements.</p>
</main>`;
  return page("Project Intelligence Service", body);
}
