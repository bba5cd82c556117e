// What to do with an HTTP response, decided once for every source: use it, retry it (and when), skip the
// entity, or fail the run. Rate-limit rules follow GitHub's documented headers, which most APIs share.

export type Headers = Record<string, string | string[] | undefined>;
export type Decision = "ok" | "not_modified" | "retry" | "skip" | "fail";

export interface Classification {
  decision: Decision;
  /** How long to wait before retrying, when the server said so (Retry-After, rate-limit reset). */
  retryAfterMs?: number;
  /** One sentence saying what happened, e.g. "403 secondary rate limit (Retry-After 60 s)". */
  reason: string;
  /** What the operator should do, for "fail". */
  hint?: string;
  /** A rate limit: the wait applies to every request made with the same credential, not just this one. */
  rateLimited?: true;
}

/** GitHub's advice when a rate-limited response names no reset time: wait at least one minute. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

/** A header value by case-insensitive name, first value when repeated. */
export function header(headers: Headers, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Retry-After as milliseconds from `now`: either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** x-ratelimit-reset (epoch seconds) as milliseconds from `now`. */
function resetWait(headers: Headers, now: Date): number | undefined {
  const reset = header(headers, "x-ratelimit-reset");
  if (reset === undefined || !/^\d+$/.test(reset.trim())) return undefined;
  return Math.max(0, Number(reset) * 1000 - now.getTime());
}

function message(body: unknown): string {
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string")
    return body.message;
  return "";
}

/** GraphQL answers some failures with 200 and `errors` but no data: a rate limit, or a query the server refused. */
function graphqlFailure(
  status: number,
  headers: Headers,
  body: unknown,
  now: Date,
): Classification | undefined {
  if (!body || typeof body !== "object" || !("errors" in body) || !Array.isArray(body.errors))
    return undefined;
  if ("data" in body && body.data !== null && body.data !== undefined) return undefined;
  const errors = body.errors as { type?: unknown; message?: unknown }[];
  const first = errors[0];
  if (errors.some((e) => e?.type === "RATE_LIMITED")) {
    const wait = resetWait(headers, now) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
    return {
      decision: "retry",
      retryAfterMs: wait,
      reason: `${status} GraphQL rate limit exhausted`,
      rateLimited: true,
    };
  }
  return {
    decision: "fail",
    reason: `${status} GraphQL error: ${typeof first?.message === "string" ? first.message : "no data returned"}`,
    hint: "The query was refused; check it against the API schema.",
  };
}

function rateLimited(status: number, headers: Headers, body: unknown, now: Date): Classification | undefined {
  const retryAfter = parseRetryAfter(header(headers, "retry-after"), now);
  if (retryAfter !== undefined) {
    return {
      decision: "retry",
      retryAfterMs: retryAfter,
      reason: `${status} secondary rate limit (Retry-After ${Math.round(retryAfter / 1000)} s)`,
      rateLimited: true,
    };
  }
  if (header(headers, "x-ratelimit-remaining")?.trim() === "0") {
    const wait = resetWait(headers, now);
    return {
      decision: "retry",
      retryAfterMs: wait ?? DEFAULT_RATE_LIMIT_WAIT_MS,
      reason: `${status} primary rate limit exhausted${wait === undefined ? " (no reset time given)" : ""}`,
      rateLimited: true,
    };
  }
  // Some rate-limit answers carry neither header; GitHub then says so in the message.
  if (status === 429 || /rate limit|abuse/i.test(message(body))) {
    return {
      decision: "retry",
      retryAfterMs: DEFAULT_RATE_LIMIT_WAIT_MS,
      reason: `${status} rate limited`,
      rateLimited: true,
    };
  }
  return undefined;
}

/**
 * Decides what a response means. `now` anchors Retry-After dates and reset times (pass the injected clock).
 * 404/410 skip the entity; 401 fails with a hint about the token; other 4xx fail; 5xx, 408 and 202 (GitHub
 * still computing statistics) retry; 403/429 retry when they are rate limits and fail otherwise.
 */
export function classifyResponse(
  status: number,
  headers: Headers,
  body: unknown,
  now = new Date(),
): Classification {
  if (status === 202) {
    const wait = parseRetryAfter(header(headers, "retry-after"), now);
    return {
      decision: "retry",
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      reason: "202 accepted, still computing",
    };
  }
  if (status >= 200 && status < 300)
    return graphqlFailure(status, headers, body, now) ?? { decision: "ok", reason: `${status}` };
  if (status === 304) return { decision: "not_modified", reason: "304 not modified" };
  if (status === 404 || status === 410) return { decision: "skip", reason: `${status} not found` };
  if (status === 401) {
    return {
      decision: "fail",
      reason: `401 unauthorized${message(body) ? `: ${message(body)}` : ""}`,
      hint: "The API token was refused; set a valid one (for GitHub: PROJINTEL_GITHUB__TOKENS=token1,token2).",
    };
  }
  if (status === 403 || status === 429) {
    return (
      rateLimited(status, headers, body, now) ?? {
        decision: "fail",
        reason: `403 forbidden${message(body) ? `: ${message(body)}` : ""}`,
        hint: "The token lacks access to this resource; check its scopes.",
      }
    );
  }
  if (status === 408 || status >= 500) {
    const wait = parseRetryAfter(header(headers, "retry-after"), now);
    return {
      decision: "retry",
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      reason: `${status} server error`,
    };
  }
  return {
    decision: "fail",
    reason: `${status} refused${message(body) ? `: ${message(body)}` : ""}`,
    hint: "The request was rejected as invalid; this is a bug in the connector or an API change.",
  };
}
