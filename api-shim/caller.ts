// The first step of every request, 404s and errors included: tell who is calling, count the request
// against that caller's daily quota and set the X-RateLimit-* headers; refuse with 429 (or 401 for a key
// that is not accepted) before any other work is done.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Clock } from "../pipeline/core/clock.ts";
import { addressKey } from "./client-address.ts";
import { ApiError } from "./errors.ts";
import type { QuotaHit, QuotaStore } from "./quota.ts";

/** Whose quota a request counts against. */
export interface Caller {
  quotaKey: string;
  limit: number;
}

/** The seam for API keys (a later issue): the caller a bearer token belongs to, or undefined if none. */
export interface KeyVerifier {
  verify(token: string): Caller | undefined | Promise<Caller | undefined>;
}

export interface CallerHookOptions {
  anonymousLimit: number;
  quotas: QuotaStore;
  clock: Clock;
  /** Without one (until the key store exists) every bearer key is refused with 401 invalid_api_key. */
  keys?: KeyVerifier | undefined;
}

const BEARER = /^Bearer +(\S+) *$/i;

export function createCallerHook(options: CallerHookOptions) {
  const { quotas, clock, keys } = options;
  // X-RateLimit-Reset is the same string all day; format it once per day.
  let resetText = "";
  let resetMs = 0;

  function send(reply: FastifyReply, hit: QuotaHit, now: Date, refusal: ApiError | undefined, done: HookHandlerDoneFunction) {
    const reset = hit.resetAt.getTime();
    if (reset !== resetMs) {
      resetMs = reset;
      resetText = `${hit.resetAt.toISOString().slice(0, 19)}+00:00`;
    }
    reply.header("x-ratelimit-limit", String(hit.limit));
    reply.header("x-ratelimit-remaining", String(hit.remaining));
    reply.header("x-ratelimit-reset", resetText);
    if (hit.count > hit.limit) {
      const seconds = Math.max(1, Math.ceil((reset - now.getTime()) / 1000));
      done(
        new ApiError(
          "rate_limit_exceeded",
          `The daily quota of ${hit.limit} requests is used up; it resets at ${resetText}.`,
          { "retry-after": String(seconds) },
        ),
      );
      return;
    }
    done(refusal);
  }

  return function countRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const now = clock.now();
    const anonymous: Caller = { quotaKey: `ip:${addressKey(request.ip)}`, limit: options.anonymousLimit };
    const count = (caller: Caller, refusal?: ApiError) => {
      const hit = quotas.hit(caller.quotaKey, caller.limit, now);
      if (hit instanceof Promise) hit.then((h) => send(reply, h, now, refusal, done), done);
      else send(reply, hit, now, refusal, done);
    };
    const authorization = request.headers.authorization;
    if (authorization === undefined) return count(anonymous);
    const token = BEARER.exec(authorization)?.[1];
    // A refused key is counted against the caller's address, so guessing keys is capped like any other use.
    const refuse = (message: string) => count(anonymous, new ApiError("invalid_api_key", message));
    if (!token) return refuse("The Authorization header must be `Bearer <API_KEY>`.");
    if (!keys) return refuse("This API key is not valid; call without a key for the anonymous quota.");
    Promise.resolve(keys.verify(token)).then(
      (caller) => (caller ? count(caller) : refuse("This API key is not valid; create one with POST /api/v1/keys.")),
      done,
    );
  };
}
