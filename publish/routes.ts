// The route table: every published endpoint with its renderer, page sizes and cache policy. Publish walks
// it to render a release; the shim reads it for paths and Cache-Control. A new endpoint is one more entry.
import { type EndpointKey, LIMITS } from "../schemas/index.ts";
import { type RenderContext, type RenderedFile, renderQuality } from "./quality.ts";

export interface CachePolicy {
  /** Browsers and other private caches. */
  maxAgeSeconds: number;
  /** Shared caches (the CDN). Data changes once a night, when a release is flipped. */
  sharedMaxAgeSeconds: number;
  /** How long a shared cache may serve a stale copy while it fetches a fresh one. */
  staleWhileRevalidateSeconds: number;
}

export interface RouteSpec {
  endpoint: EndpointKey;
  path: string;
  pageSize: { min: number; default: number; max: number };
  cache: CachePolicy;
  /** Renders the endpoint's files into a release; returns its item counts by domain. */
  render(ctx: RenderContext, emit: (file: RenderedFile) => Promise<void>): Promise<Record<string, number>>;
}

/** A night's data: five minutes in browsers, an hour at the CDN, ten more minutes stale while refreshing. */
const NIGHTLY: CachePolicy = {
  maxAgeSeconds: 300,
  sharedMaxAgeSeconds: 3600,
  staleWhileRevalidateSeconds: 600,
};

export const QUALITY_ROUTE: RouteSpec = {
  endpoint: "GET /api/v1/quality",
  path: "/api/v1/quality",
  pageSize: LIMITS.quality,
  cache: NIGHTLY,
  render: renderQuality,
};

export const ROUTES: readonly RouteSpec[] = [QUALITY_ROUTE];

export function cacheControl(policy: CachePolicy): string {
  return `public, max-age=${policy.maxAgeSeconds}, s-maxage=${policy.sharedMaxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}`;
}

/**
 * Responses of the shim count against the caller's quota and carry their X-RateLimit-* headers, so only the
 * caller's own cache may keep them; the shared policy above is for the release's files at the CDN.
 */
export function shimCacheControl(policy: CachePolicy): string {
  return `private, max-age=${policy.maxAgeSeconds}`;
}
