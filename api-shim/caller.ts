// The first step of every request, 404s and errors included: tell who is calling and count the request
// against that caller's daily quota (a file served as it is once per file and day: see fileRead), kept on the
// request for the X-RateLimit-* headers the response writers add; refuse with 429 (or 401 for a key that is not accepted) before any other work. A refused
// key is never served or counted under the anonymous quota: its 401 shows that quota's standing, uncounted.
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { type Clock, nextUtcMidnight } from "../core/clock.ts";
import { ApiError } from "./errors.ts";
import { addressKey } from "./http/client-address.ts";
import { keyFault } from "./keys/keys.ts";
import { type QuotaHit, type QuotaStore, QuotaUnavailableError } from "./quota/quota.ts";

/** Whose quota a request counts against. */
export interface Caller {
  quotaKey: string;
  limit: number;
}

/** The caller a well-formed bearer key belongs to, or undefined if it is unknown or revoked (key-store.ts). */
export interface KeyVerifier {
  verify(token: string): Caller | undefined | Promise<Caller | undefined>;
}

export interface CallerHookOptions {
  anonymousLimit: number;
  /** Daily quotas of keys created without and with an e-mail address, named in a 429 as the way to more. */
  keyLimits: { free: number; email: number };
  quotas: QuotaStore;
  clock: Clock;
  /** Without one every bearer key is refused with 401 invalid_api_key. */
  keys?: KeyVerifier | undefined;
}

const BEARER = /^Bearer +(\S+) *$/i;
/** Why a key that is not well formed is refused, checked before any lookup. */
const KEY_FAULT_MESSAGES = {
  malformed:
    "This API key is malformed (a key is pis_ and 36 letters or digits); create one with POST /api/v1/keys, or call without a key.",
  mistyped:
    "This API key is mistyped: it has a key's shape, but its last 6 characters (a checksum) do not match the rest; copy it again from where you saved it, create one with POST /api/v1/keys, or call without a key.",
} as const;
/** Seconds a client is asked to wait when the quota store cannot count (Redis down). */
const UNAVAILABLE_RETRY_SECONDS = 5;

export function createCallerHook(options: CallerHookOptions) {
  const { quotas, clock, keys, anonymousLimit, keyLimits } = options;
  function respond(
    request: FastifyRequest,
    hit: QuotaHit,
    now: Date,
    refusal: ApiError | undefined,
    done: Done,
  ) {
    request.quota = hit;
    if (hit.count <= hit.limit || hit.paid) return done(refusal);
    const seconds = Math.max(1, Math.ceil((hit.resetAt.getTime() - now.getTime()) / 1000));
    const anonymous = request.headers.authorization === undefined;
    done(
      new ApiError("rate_limit_exceeded", quotaUsedUp(hit, seconds, anonymous, keyLimits), {
        "retry-after": String(seconds),
      }),
    );
  }

  /** The store could not count: 503, with the anonymous quota's limit in the headers and nothing charged. */
  function unavailable(request: FastifyRequest, now: Date, error: unknown, done: Done) {
    if (!(error instanceof QuotaUnavailableError)) return done(error as Error);
    request.quota = {
      limit: anonymousLimit,
      count: 0,
      remaining: anonymousLimit,
      resetAt: nextUtcMidnight(now),
    };
    done(
      new ApiError("unavailable", "Request counting is unavailable for a moment; retry in a few seconds.", {
        "retry-after": String(UNAVAILABLE_RETRY_SECONDS),
      }),
    );
  }

  function count(
    request: FastifyRequest,
    caller: Caller,
    now: Date,
    refusal: ApiError | undefined,
    done: Done,
  ) {
    let hit: QuotaHit | Promise<QuotaHit>;
    const file = fileRead(request);
    try {
      if (isUncounted(request)) {
        // shown where the caller stands, charged nothing, served whatever the count
        const peeked = quotas.peek(caller.quotaKey, caller.limit, now);
        hit = peeked instanceof Promise ? peeked.then(servedUncounted) : servedUncounted(peeked);
      } else
        hit =
          file === undefined
            ? quotas.hit(caller.quotaKey, caller.limit, now)
            : quotas.hitOnce(caller.quotaKey, file, caller.limit, now);
    } catch (error) {
      return unavailable(request, now, error, done);
    }
    if (hit instanceof Promise)
      hit.then(
        (h) => respond(request, h, now, refusal, done),
        (error: unknown) => unavailable(request, now, error, done),
      );
    else respond(request, hit, now, refusal, done);
  }

  /**
   * A refused key: 401, never served or counted under the anonymous quota (a key holder whose key broke must
   * notice, not be quietly downgraded). Not counting refusals costs nothing: a key holds 178 random bits, and a
   * malformed one is refused before any lookup. The headers show the caller's anonymous standing, uncounted.
   */
  function refuse(request: FastifyRequest, now: Date, message: string, done: Done) {
    const anonymous = anonymousCaller(request, anonymousLimit);
    const refusal = new ApiError("invalid_api_key", message);
    const settle = (hit: QuotaHit) => {
      request.quota = hit;
      done(refusal);
    };
    let hit: QuotaHit | Promise<QuotaHit>;
    try {
      hit = quotas.peek(anonymous.quotaKey, anonymous.limit, now);
    } catch (error) {
      return unavailable(request, now, error, done);
    }
    if (hit instanceof Promise) hit.then(settle, (error: unknown) => unavailable(request, now, error, done));
    else settle(hit);
  }

  /** The slow path: a request with an Authorization header. */
  function authenticate(request: FastifyRequest, header: string, now: Date, done: Done) {
    const token = bearerToken(header);
    if (!token) return refuse(request, now, "The Authorization header must be `Bearer <API_KEY>`.", done);
    if (!keys) return refuse(request, now, "This server accepts no API keys; call without a key.", done);
    const fault = keyFault(token);
    if (fault) return refuse(request, now, KEY_FAULT_MESSAGES[fault], done);
    Promise.resolve(keys.verify(token)).then(
      (caller) =>
        caller
          ? count(request, caller, now, undefined, done)
          : refuse(
              request,
              now,
              "This API key is unknown or revoked; create one with POST /api/v1/keys, or call without a key.",
              done,
            ),
      // the key store cannot answer (Redis down): 503 with the anonymous standing, like a quota store that cannot count
      (error: unknown) => unavailable(request, now, error, done),
    );
  }

  return function countRequest(request: FastifyRequest, _reply: FastifyReply, done: Done): void {
    const now = clock.now();
    const counted = (request.raw as Marked)[COUNTED];
    const header = request.headers.authorization;
    if (counted) respond(request, counted, now, undefined, done);
    else if (header === undefined)
      count(request, anonymousCaller(request, anonymousLimit), now, undefined, done);
    else authenticate(request, header, now, done);
  };
}

type Done = HookHandlerDoneFunction;

/**
 * The 429 of a used-up quota: when it resets (the time and how long until then), and the way to more — a free key
 * for a caller without one (creating it is never refused for the quota: keys/route.ts), a key with an e-mail
 * address for a free key's holder.
 */
export function quotaUsedUp(
  hit: QuotaHit,
  seconds: number,
  anonymous: boolean,
  keyLimits: { free: number; email: number },
): string {
  const used = `The daily quota of ${hit.limit} requests ${anonymous ? "without an API key" : "of this API key"} is used up; it resets at ${resetHeader(hit)} (midnight UTC, in ${inHoursAndMinutes(seconds)}).`;
  if (anonymous) {
    return `${used} A free API key raises it to ${keyLimits.free} a day (${keyLimits.email} with an e-mail address): create one with POST /api/v1/keys (no body needed; never refused for this quota) and send it as Authorization: Bearer <key>.`;
  }
  return hit.limit < keyLimits.email
    ? `${used} A key created with an e-mail address gets ${keyLimits.email} a day: POST /api/v1/keys with {"email":"you@example.com"}.`
    : used;
}

/** "3 h 12 min", "45 min", "1 min": a wait as a person reads it. */
function inHoursAndMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return hours === 0 ? `${minutes} min` : `${hours} h ${minutes % 60} min`;
}

/** The key of an `Authorization: Bearer <key>` header, or undefined for any other form. */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}

/** Route config of the file routes served as they are (route-handler.ts): their reads are paid once a day per file. */
export interface FileReadConfig {
  fileRead?: boolean;
}

/** Route config of the routes never counted against a quota (badges: ViewRoute.uncounted). */
export interface UncountedConfig {
  uncounted?: boolean;
}

function isUncounted(request: FastifyRequest): boolean {
  return (request.routeOptions?.config as UncountedConfig | undefined)?.uncounted === true;
}

/** A peeked standing, marked to be served whatever the count (nothing was charged for it). */
export function servedUncounted(hit: QuotaHit): QuotaHit {
  return { ...hit, paid: true };
}

/**
 * The file a request reads, when its route serves files as they are: its path, what one day's payment covers (a
 * HEAD and any number of ranged GETs of it, and GETs of it whole).
 */
function fileRead(request: FastifyRequest): string | undefined {
  if (!(request.routeOptions?.config as FileReadConfig | undefined)?.fileRead) return undefined;
  return fileItem(request.url);
}

/**
 * What a day's payment for a file covers: its URL's path, percent-decoded as the router decodes it, so every spelling
 * of one file (/datasets/%71uality.parquet) is the file paid for (the fast path pays for a file the same way). A path
 * that does not decode is kept as it is: the router refuses it before anything is charged.
 */
export function fileItem(url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** Where the caller stands after this request was counted; null if counting failed. */
    quota: QuotaHit | null;
  }
}

// X-RateLimit-Reset is the same text all day: formatted once per reset time.
let resetMs = Number.NaN;
let resetText = "";

function resetHeader(hit: QuotaHit): string {
  const time = hit.resetAt.getTime();
  if (time !== resetMs) {
    resetText = `${hit.resetAt.toISOString().slice(0, 19)}+00:00`;
    resetMs = time;
  }
  return resetText;
}

/** "000" to "999", and "0" to "999": the pieces of decimal(). */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
const UP_TO_999 = Array.from({ length: 1000 }, (_, i) => String(i));

/**
 * A count's decimal text, made without V8's number-to-string cache. X-RateLimit-Remaining is a new number on every
 * response, and the cache (an old-space table) keeps each one's text alive until a later number takes its slot: some
 * 16,000 responses later, past two scavenges, so every response promoted its text to the old generation (measured,
 * 57 KB promoted per scavenge under load, and none without). These pieces are joined into a new short string that
 * dies young. As fast as `${n}` (30 ns).
 */
export function decimal(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e9) return `${n}`;
  if (n < 1000) return UP_TO_999[n] as string;
  if (n < 1e6) return (UP_TO_999[Math.floor(n / 1000)] as string) + THREE_DIGITS[n % 1000];
  return (
    (UP_TO_999[Math.floor(n / 1e6)] as string) +
    THREE_DIGITS[Math.floor(n / 1000) % 1000] +
    THREE_DIGITS[n % 1000]
  );
}

/** The X-RateLimit-* headers every response carries. */
export function rateLimitHeaders(hit: QuotaHit): Record<string, string> {
  return {
    "x-ratelimit-limit": String(hit.limit),
    "x-ratelimit-remaining": decimal(hit.remaining),
    "x-ratelimit-reset": resetHeader(hit),
  };
}

function anonymousCaller(request: FastifyRequest, limit: number): Caller {
  return { quotaKey: anonymousQuotaKey(request.ip), limit };
}

/** The quota key of a caller without a key: its address, IPv6 grouped by /64. */
export function anonymousQuotaKey(address: string | undefined): string {
  return `ip:${addressKey(address)}`;
}

const COUNTED = Symbol("counted");
type Marked = IncomingMessage & { [COUNTED]?: QuotaHit };

/** The fast path counted this request already (and found it over quota): the hook must not count it again. */
export function markCounted(req: IncomingMessage, hit: QuotaHit): void {
  (req as Marked)[COUNTED] = hit;
}
