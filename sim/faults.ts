// Injected faults: for a share of requests to the sources (never /_sim/*), answer a 5xx, hold the socket
// and close it (timeout), refuse with a rate limit, or send a malformed body. The choice is a pure function
// of (seed, path with query, attempt number), so the same sequence of requests meets the same faults.
import { type HttpReply, JSON_UTF8, jsonReply } from "./http/reply.ts";
import { hash32 } from "./random.ts";

export const FAULT_KINDS = ["5xx", "timeout", "rate_limit", "malformed"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  /** Share of source requests that fail, 0..1. */
  rate: number;
  kinds?: readonly FaultKind[];
  seed?: number;
  /** How long a timeout holds the socket before closing it (default 15 s). */
  holdMs?: number;
}

export interface FaultSettings {
  rate: number;
  kinds: FaultKind[];
  seed: number;
  holdMs: number;
}

const ATTEMPT_SLOTS = 1 << 20;

function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let n = 0; n < text.length; n++) h = Math.imul(h ^ text.charCodeAt(n), 0x01000193);
  return h >>> 0;
}

/** Checks a settings object (from start options or POST /_sim/faults); returns a message when invalid. */
export function validateFaults(input: unknown): FaultSettings | string {
  if (typeof input !== "object" || input === null)
    return "faults must be an object {rate, kinds, seed, holdMs}.";
  const raw = input as Record<string, unknown>;
  const rate = raw.rate ?? 0;
  if (typeof rate !== "number" || !(rate >= 0 && rate <= 1))
    return "faults.rate must be a number from 0 to 1.";
  const kinds = raw.kinds ?? [...FAULT_KINDS];
  if (
    !Array.isArray(kinds) ||
    kinds.length === 0 ||
    !kinds.every((k) => FAULT_KINDS.includes(k as FaultKind))
  )
    return `faults.kinds must be a non-empty list of ${FAULT_KINDS.join(", ")}.`;
  const seed = raw.seed ?? 1;
  if (typeof seed !== "number" || !Number.isInteger(seed)) return "faults.seed must be an integer.";
  const holdMs = raw.holdMs ?? 15_000;
  if (typeof holdMs !== "number" || !(holdMs >= 0 && holdMs <= 600_000))
    return "faults.holdMs must be a number of milliseconds from 0 to 600000.";
  return { rate, kinds: kinds as FaultKind[], seed, holdMs };
}

export interface Faults {
  settings(): FaultSettings;
  configure(settings: FaultSettings): void;
  /** The fault for this request (counting it as one attempt at the path), or undefined. */
  decide(pathWithQuery: string): FaultKind | undefined;
}

export function createFaults(initial: FaultSettings): Faults {
  let current = initial;
  let attempts: Uint16Array | undefined;
  return {
    settings: () => current,
    configure: (settings) => {
      current = settings;
      attempts = undefined;
    },
    decide: (pathWithQuery) => {
      if (current.rate <= 0) return undefined;
      attempts ??= new Uint16Array(ATTEMPT_SLOTS);
      const h = hashText(pathWithQuery);
      const slot = h & (ATTEMPT_SLOTS - 1);
      const attempt = attempts[slot] as number;
      attempts[slot] = Math.min(attempt + 1, 65_535);
      const roll = hash32(current.seed, h, attempt, 0xfa);
      if (roll / 4_294_967_296 >= current.rate) return undefined;
      return current.kinds[hash32(current.seed, h, attempt, 0xfb) % current.kinds.length];
    },
  };
}

const STATUS_5XX = [500, 502, 503] as const;

/** The reply of a fault decided before the handler runs (every kind but malformed). */
export function faultReply(
  kind: FaultKind,
  source: string,
  pathWithQuery: string,
  settings: FaultSettings,
): HttpReply {
  const pick = hash32(settings.seed, hashText(pathWithQuery), 0xfc);
  if (kind === "timeout") return { status: 504, headers: {}, body: "", holdMs: settings.holdMs };
  if (kind === "5xx") {
    const status = STATUS_5XX[pick % 3] as number;
    if (status === 502)
      return {
        status,
        headers: { "content-type": "text/html" },
        body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n",
      };
    return jsonReply(status, { message: status === 500 ? "Server Error" : "Service Unavailable" });
  }
  const reset = Math.floor(Date.now() / 1000) + 60;
  if (source === "github" && pathWithQuery.startsWith("/github/graphql")) {
    // GraphQL's primary limit answers 200 with RATE_LIMITED (graphql-handler.ts); a 403 here is the secondary one.
    return jsonReply(
      403,
      {
        documentation_url:
          "https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#secondary-rate-limits",
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      { "retry-after": "1" },
    );
  }
  if (source === "github" && pick % 2 === 0) {
    return jsonReply(
      403,
      {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
      },
      {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "5000",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "core",
      },
    );
  }
  return jsonReply(
    429,
    { message: "Too Many Requests" },
    { "retry-after": "1", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
  );
}

/** Spoils a real reply: truncated JSON, or the first number of the body turned into a string. */
export function malform(reply: HttpReply, pathWithQuery: string, settings: FaultSettings): HttpReply {
  const body = reply.body;
  if (body.length < 2) return { ...reply, status: 200, headers: { "content-type": JSON_UTF8 }, body: "{" };
  const truncate = hash32(settings.seed, hashText(pathWithQuery), 0xfd) % 2 === 0;
  const retyped = body.replace(/":(-?\d+(?:\.\d+)?)([,}\]])/, '":"$1x"$2');
  const spoiled = truncate || retyped === body ? body.slice(0, Math.floor(body.length / 2)) : retyped;
  const { etag: _etag, ...headers } = reply.headers;
  return { ...reply, headers, body: spoiled };
}
