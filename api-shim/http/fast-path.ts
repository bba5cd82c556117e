// The shim's fast path. Most traffic repeats a few URLs, and a GET already answered for the live release has a
// prepared body: such a request is counted against its caller's quota (its address's, or its key's when it carries a
// valid one) and written straight from the HTTP server's request event, without Fastify's request, reply, hooks and
// router (measured, those cost a quarter of the throughput). Anything else — a key that is not valid, HEAD, a URL not
// seen yet, a caller over quota — goes through Fastify as before.
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { Clock } from "../../core/clock.ts";
import type { Body } from "../../publish/envelope.ts";
import { anonymousQuotaKey, bearerToken, type Caller, type KeyVerifier, markCounted } from "../caller.ts";
import { isWellFormedKey } from "../keys/keys.ts";
import type { QuotaHit, QuotaStore } from "../quota/quota.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { writeBody } from "./send.ts";

interface Prepared {
  route: string;
  body: Body;
  cacheControl: string;
  releaseId: string | undefined;
  /** Never counted against a quota (badges): the caller's standing is peeked, and the answer served whatever it is. */
  uncounted?: boolean;
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
  timestamp: () => string;
  /** Bearer key verification, as the caller hook does it; without it every keyed request goes to Fastify. */
  keys?: KeyVerifier | undefined;
  /** Fastify's trust function for X-Forwarded-For hops, so both paths see the same client address. */
  trustProxy: false | ((address: string, hop: number) => boolean);
}

/** Serves the request if it can, else hands it to Fastify (`fallback`), marked as counted once it was. */
export function createFastPath(options: FastPathOptions) {
  const { answers, release, quotas, anonymousLimit, clock, timestamp, trustProxy, keys } = options;
  const clientAddress = (req: IncomingMessage) =>
    trustProxy ? proxyAddr.all(req, trustProxy).at(-1) : req.socket.remoteAddress;

  return function serveFast(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: (req: IncomingMessage, res: ServerResponse) => void,
  ): void {
    const answer = req.method === "GET" && req.url !== undefined ? answers.get(req.url) : undefined;
    if (answer === undefined || answer.releaseId !== release.current()?.release_id) {
      fallback(req, res);
      return;
    }
    const respond = (hit: QuotaHit) => {
      if (hit.count <= hit.limit || answer.uncounted) {
        answers.served++;
        writeBody(req, res, hit, answer.body, timestamp(), answer.cacheControl);
      } else {
        // over quota: Fastify writes the 429 in the envelope, without counting the request again
        markCounted(req, hit);
        fallback(req, res);
      }
    };
    const count = (caller: Caller) => {
      const hit = answer.uncounted
        ? quotas.peek(caller.quotaKey, caller.limit, clock.now())
        : quotas.hit(caller.quotaKey, caller.limit, clock.now());
      if (hit instanceof Promise) hit.then(respond, () => fallback(req, res));
      else respond(hit);
    };
    const header = req.headers.authorization;
    if (header === undefined) {
      count({ quotaKey: anonymousQuotaKey(clientAddress(req)), limit: anonymousLimit });
      return;
    }
    // A key: served here with its own quota when it is valid; a malformed, unknown or revoked key (or a key store
    // that cannot answer) goes to Fastify, which refuses it with 401 (or 503) in the envelope, uncounted.
    const token = keys === undefined ? undefined : bearerToken(header);
    if (token === undefined || !isWellFormedKey(token)) {
      fallback(req, res);
      return;
    }
    const caller = (keys as KeyVerifier).verify(token);
    const known = (found: Caller | undefined) => (found ? count(found) : fallback(req, res));
    if (caller instanceof Promise) caller.then(known, () => fallback(req, res));
    else known(caller);
  };
}
