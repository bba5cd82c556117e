// Small pieces every simulated REST source shares: the reply type, JSON replies, weak ETags with 304,
// and RFC 5988 `Link` headers for numbered pages (first/prev/next/last, as GitHub writes them).
import { createHash } from "node:crypto";

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set by the timeout fault: hold the socket this many milliseconds, then close it without answering. */
  holdMs?: number;
}

export const JSON_UTF8 = "application/json; charset=utf-8";

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return { status, headers: { "content-type": JSON_UTF8, ...headers }, body: JSON.stringify(body) };
}

/** A weak ETag over the body bytes, as GitHub sends on REST GETs. */
export function weakEtag(body: string): string {
  return `W/"${createHash("sha1").update(body).digest("hex")}"`;
}

/** True when an If-None-Match header names the ETag (weak comparison, `*` matches anything). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "");
    return value === "*" || value === bare;
  });
}

/** Adds an ETag to a 200 reply, or turns it into an empty 304 when the client already has it. */
export function withEtag(reply: HttpReply, ifNoneMatch: string | undefined): HttpReply {
  if (reply.status !== 200) return reply;
  const etag = weakEtag(reply.body);
  if (etagMatches(ifNoneMatch, etag)) {
    const { "content-type": _, ...rest } = reply.headers;
    return { status: 304, headers: { ...rest, etag }, body: "" };
  }
  return { ...reply, headers: { ...reply.headers, etag } };
}

/** Page number and size from `page`/`per_page` (GitHub: size 1..100, default 30; page >= 1). */
export function pageParams(params: URLSearchParams, defaultSize = 30, maxSize = 100) {
  const size = Number.parseInt(params.get("per_page") ?? "", 10);
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    perPage: Number.isFinite(size) && size > 0 ? Math.min(size, maxSize) : defaultSize,
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/**
 * The `Link` header of page `page` of `lastPage` (no header when everything fits on one page). `base` is
 * the absolute URL of the list; every other query parameter of the request is kept.
 */
export function linkHeader(base: string, params: URLSearchParams, page: number, lastPage: number): string {
  if (lastPage <= 1 && page <= 1) return "";
  const at = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `<${base}?${next.toString()}>`;
  };
  const parts: string[] = [];
  if (page > 1) parts.push(`${at(Math.min(page - 1, Math.max(lastPage, 1)))}; rel="prev"`);
  if (page < lastPage) parts.push(`${at(page + 1)}; rel="next"`, `${at(lastPage)}; rel="last"`);
  if (page > 1) parts.push(`${at(1)}; rel="first"`);
  return parts.join(", ");
}

/** One request to a simulated source, as handlers see it. */
export interface SimRequest {
  method: string;
  /** The path after the source prefix, e.g. /repos/o/r for /github/repos/o/r (still percent-encoded). */
  path: string;
  params: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Absolute URL of the source prefix, e.g. http://127.0.0.1:1234/github. */
  base: string;
  /** The request body (POST only). */
  body?: string;
}

export type SourceHandler = (request: SimRequest) => HttpReply;

export const NOT_FOUND: HttpReply = jsonReply(404, { message: "Not Found" });
