// Errors of the pages for people answered as pages: a browser following a link to /p/{owner}/{repo} for a repository
// not tracked, or to /d/{domain} with a mistyped domain, gets HTML in the frame of the other pages (same status),
// while a client that asks for JSON, or names no preference, keeps the error envelope every other route gives.
import type { FastifyRequest } from "fastify";
import type { PageLink } from "../../publish/error-page.ts";

/** Route config of the pages for people (RouteBase.errorPage): the links their error pages offer. */
export interface ErrorPageConfig {
  errorPage?: (params: Readonly<Record<string, string>>) => readonly PageLink[];
}

/** The quality a media range of an Accept header gives (q=1 unless said), or 0 when it is not listed. */
function quality(accept: string, types: readonly string[]): number {
  let best = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    if (!types.includes(type)) continue;
    const q = params.find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isFinite(value)) best = Math.max(best, value);
  }
  return best;
}

/**
 * Whether the client prefers HTML to JSON: it names text/html (every browser does, first) more highly than JSON. A
 * tie, wildcards alone (what curl sends) or no Accept keep JSON, so scripts and tools read errors as everywhere else.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = quality(accept, ["text/html", "application/xhtml+xml"]);
  return html > quality(accept, ["application/json", "application/*"]);
}

/**
 * For an error of a page for people (undefined on any other route): the links of its HTML page when the client wants
 * HTML, else undefined `links` (the envelope). Either way the error varies by Accept.
 */
export function errorPageOf(request: FastifyRequest): { links?: readonly PageLink[] } | undefined {
  const config = request.routeOptions?.config as ErrorPageConfig | undefined;
  if (!config?.errorPage) return undefined;
  if (!prefersHtml(request.headers.accept)) return {};
  return { links: config.errorPage((request.params ?? {}) as Record<string, string>) };
}
