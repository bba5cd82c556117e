// The shim's fast path. Most traffic repeats a few URLs, and a GET already answered for the live release has a
// prepared body: such a request is counted against its caller's quota (its address's, or its key's when it carries a
// valid one) and written straight from the HTTP server's request event, without Fastify's request, reply, hooks and
// router (measured, those cost a quarter of the throughput); a small release file asked whole, too (paid once a day, as
// the router pays for it). Anything else — a key that is not valid, HEAD, a Range, a URL not seen yet, a caller over
// quota — goes through Fastify as before.
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { Clock } from "../../core/clock.ts";
import { anonymousQuotaKey, bearerToken, type KeyVerifier, markCounted } from "../caller.ts";
import { isWellFormedKey } from "../keys/keys.ts";
import type { QuotaHit, QuotaStore } from "../quota/quota.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { type PreparedReply, writeBody } from "./send.ts";

interface Prepared {
  route: string;
  reply: PreparedReply;
  releaseId: string | undefined;
  /** Never counted against a quota (badges): the caller's standing is peeked, and the answer served whatever it is. */
  uncounted?: boolean;
  /**
   * A release file served as it is: what a day's payment covers (caller.ts fileItem), so a caller pays for it once a
   * day, as through the router. A request for a range of it goes to the router.
   */
  item?: string;
}

/** Most URLs remembered; past it the cache starts again (as the route handler's own caches do). */
const MAX_URLS = 16_384;

declare module "fastify" {
  interface FastifyInstance {
    /** What the fast path may answer, and how many it did. */
    preparedAnswers: PreparedAnswers;
  }
}

/** Prepared answers by URL, filled by the route handler as it answers. */
export class PreparedAnswers {
  private readonly byUrl = new Map<string, Prepared>();
  /** Requests the fast path answered (a figure for tests and benchmarks). */
  served = 0;

  remember(url: string, answer: Prepared): void {
    if (this.byUrl.size >= MAX_URLS) this.byUrl.clear();
    this.byUrl.set(url, answer);
  }

  get(url: string): Prepared | undefined {
    return this.byUrl.get(url);
  }

  /** Drops a route's answers (its own cache let them go: their bodies must not outlive it here). */
  forget(route: string): void {
    for (const [url, answer] of this.byUrl) if (answer.route === route) this.byUrl.delete(url);
  }
}

export interface FastPathOptions {
  answers: PreparedAnswers;
  release: ReleaseReader;
  quotas: QuotaStore;
  anonymousLimit: number;
  clock: Clock;
  /** meta.timestamp, of the time the quota was counted at (one clock read per request). */
  timestamp: (at: Date) => string;
  /** Bearer key verification, as the caller hook does it; without it every keyed request goes to Fastify. */
  keys?: KeyVerifier | undefined;
  /** Fastify's trust function for X-Forwarded-For hops, so both paths see the same client address. */
  trustProxy: false | ((address: string, hop: number) => boolean);
}

/** Distinct client addresses and Authorization headers whose reading is remembered (a bound, not a tuning knob). */
const MAX_MEMO = 4096;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves the request if it can, else hands it to Fastify (`fallback`), marked as counted once it was. */
export function createFastPath(options: FastPathOptions) {
  const { answers, release, quotas, anonymousLimit, clock, timestamp, trustProxy, keys } = options;
  // The same few callers make most requests: their quota key (an address's /64, a well-formed key's token) is
  // worked out once, not per request.
  const addressKeys = new Map<string, string>();
  const tokens = new Map<string, string | null>();

  function anonymousKey(req: IncomingMessage): string {
    const address = trustProxy ? proxyAddr.all(req, trustProxy).at(-1) : req.socket.remoteAddress;
    if (address === undefined) return anonymousQuotaKey(address);
    let key = addressKeys.get(address);
    if (key === undefined) {
      if (addressKeys.size >= MAX_MEMO) addressKeys.clear();
      key = anonymousQuotaKey(address);
      addressKeys.set(address, key);
    }
    return key;
  }

  /** The key of an Authorization header when it is a well-formed bearer key, else null. */
  function wellFormedToken(header: string): string | null {
    let token = tokens.get(header);
    if (token === undefined) {
      if (tokens.size >= MAX_MEMO) tokens.clear();
      const found = bearerToken(header);
      token = found !== undefined && isWellFormedKey(found) ? found : null;
      tokens.set(header, token);
    }
    return token;
  }

  // Plain functions rather than closures made per request: nothing is allocated on the way to the quota store.
  function settle(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: Handler,
    answer: Prepared,
    hit: QuotaHit,
    now: Date,
  ) {
    if (hit.count <= hit.limit || answer.uncounted || hit.paid) {
      answers.served++;
      writeBody(req, res, hit, answer.reply, timestamp(now), true);
    } else {
      // over quota: Fastify writes the 429 in the envelope, without counting the request again
      markCounted(req, hit);
      fallback(req, res);
    }
  }

  function count(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: Handler,
    answer: Prepared,
    quotaKey: string,
    limit: number,
  ) {
    const now = clock.now();
    const hit = answer.uncounted
      ? quotas.peek(quotaKey, limit, now)
      : answer.item === undefined
        ? quotas.hit(quotaKey, limit, now)
        : quotas.hitOnce(quotaKey, answer.item, limit, now);
    if (hit instanceof Promise)
      hit.then(
        (h) => settle(req, res, fallback, answer, h, now),
        () => fallback(req, res),
      );
    else settle(req, res, fallback, answer, hit, now);
  }

  return function serveFast(req: IncomingMessage, res: ServerResponse, fallback: Handler): void {
    const answer = req.method === "GET" && req.url !== undefined ? answers.get(req.url) : undefined;
    if (answer === undefined || answer.releaseId !== release.current()?.release_id) {
      fallback(req, res);
      return;
    }
    if (answer.item !== undefined && req.headers.range !== undefined) {
      fallback(req, res);
      return;
    }
    const header = req.headers.authorization;
    if (header === undefined) {
      count(req, res, fallback, answer, anonymousKey(req), anonymousLimit);
      return;
    }
    // A key: served here with its own quota when it is valid; a malformed, unknown or revoked key (or a key store
    // that cannot answer) goes to Fastify, which refuses it with 401 (or 503) in the envelope, uncounted.
    const token = keys === undefined ? null : wellFormedToken(header);
    if (token === null) {
      fallback(req, res);
      return;
    }
    const caller = (keys as KeyVerifier).verify(token);
    if (caller instanceof Promise)
      caller.then(
        (found) =>
          found ? count(req, res, fallback, answer, found.quotaKey, found.limit) : fallback(req, res),
        () => fallback(req, res),
      );
    else if (caller) count(req, res, fallback, answer, caller.quotaKey, caller.limit);
    else fallback(req, res);
  };
}
