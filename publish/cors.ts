// CORS for a public read API, stated once: the shim sends these headers (api-shim/http/server.ts) and the OpenAPI
// document states the policy (publish/openapi.ts). Any origin may call every endpoint and read the quota headers and
// the ETag, but never with the browser's credentials: `*` without Access-Control-Allow-Credentials, so a browser
// sends no cookie or HTTP authentication cross-origin on its own, and an API key only when the page's code puts it in
// an Authorization header itself (which the preflight allows).

/** Response headers a cross-origin script may read besides the safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "ETag",
  "Content-Range",
  "Accept-Ranges",
  "Content-Encoding",
] as const;

/** Request headers a cross-origin script may send (what the preflight allows). */
export const CORS_ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Range",
  "If-None-Match",
  "If-Range",
] as const;

export const CORS_ALLOWED_METHODS = "GET, HEAD, POST";
/** How long a browser may reuse a preflight's answer (a day). */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** On every response, errors included. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": CORS_EXPOSED_HEADERS.join(", "),
};

/** On the answer to a preflight (OPTIONS with Access-Control-Request-Method). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  "access-control-allow-methods": CORS_ALLOWED_METHODS,
  "access-control-allow-headers": CORS_ALLOWED_HEADERS.join(", "),
  "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
};

/** The policy in words, for the OpenAPI document. */
export const CORS_POLICY = `CORS: any origin may call every endpoint (Access-Control-Allow-Origin: *) and read ${CORS_EXPOSED_HEADERS.join(", ")}. Preflights (OPTIONS) are answered 204 for ${CORS_ALLOWED_METHODS} with ${CORS_ALLOWED_HEADERS.join(", ")}, cached ${CORS_MAX_AGE_SECONDS} s, and not counted against the quota. Credentials are never allowed cross-origin (no Access-Control-Allow-Credentials): a browser sends no cookies or HTTP authentication on its own, and an API key only when the page's code sets the Authorization header explicitly.`;
