// The one HTTP client every connector uses: got with keep-alive agents, per-host concurrency, retries that
// honour Retry-After and rate-limit resets, conditional requests and request counts for the run report.
// Sleep and clock come in as options so tests never wait for real.
import http from "node:http";
import https from "node:https";
import got, { RequestError } from "got";
import pLimit, { type LimitFunction } from "p-limit";
import { type Clock, systemClock } from "../../core/clock.ts";
import { AppError } from "../../core/errors.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import { type Classification, classifyResponse, type Headers } from "./http-decision.ts";

export {
  type Classification,
  classifyResponse,
  type Decision,
  type Headers,
  header,
} from "./http-decision.ts";

/** Remembers ETags and bodies so a repeated GET can be conditional (If-None-Match → 304). */
export interface EtagStore {
  get(url: string): Promise<{ etag: string; body: string } | undefined>;
  set(url: string, etag: string, body: string): Promise<void>;
}

export function memoryEtagStore(): EtagStore {
  const entries = new Map<string, { etag: string; body: string }>();
  return {
    get: async (url) => entries.get(url),
    set: async (url, etag, body) => void entries.set(url, { etag, body }),
  };
}

export interface HttpClientOptions {
  userAgent: string;
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Requests in flight at once per source and host. */
  perHostConcurrency: number;
  /** Longest wait accepted before a retry; longer waits become a RetryLaterError. */
  maxRetryWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
  clock?: Clock;
  /** Source of jitter, 0 ≤ x < 1. */
  random?: () => number;
  etags?: EtagStore;
  logger?: Logger;
  /** Most requests a source may send in this client's life (304s are free), e.g. { pypistats: 10000 }. */
  budgets?: Record<string, number>;
}

export interface RequestOptions {
  /** The source the request is for; requests are counted per source. */
  source: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
  /** Send If-None-Match from the ETag store and answer a 304 with the stored body. GET only. */
  conditional?: boolean;
  /**
   * What of a conditional request's body the ETag store keeps: the connector's schema applied to it (zod drops every
   * field it does not name), or undefined to keep the body as it came (one the schema refuses, so a 304 quarantines
   * it again). A 304 then answers that projection, which the same schema reads to the same rows: PyPI's project
   * JSON and npm's packuments are mostly descriptions and file lists no row uses, and were 90% of the cache.
   */
  keep?: (body: unknown) => unknown;
  /**
   * Return a 202 (GitHub still computing statistics) as decision "pending" instead of retrying it here, so
   * the caller can ask again later in the run while other work goes on.
   */
  pending?: boolean;
}

export interface HttpResult {
  url: string;
  status: number;
  /** "pending" only for requests made with `pending: true`. */
  decision: "ok" | "not_modified" | "skip" | "pending";
  reason: string;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON, or null when empty. */
  body: unknown;
}

export interface SourceCounts {
  requests: number;
  not_modified: number;
  retries: number;
}

export interface HttpStats {
  bySource: Record<string, SourceCounts>;
  byHost: Record<string, number>;
}

export interface HttpClient {
  request(url: string, options: RequestOptions): Promise<HttpResult>;
  stats(): HttpStats;
  close(): void;
}

/** A retry the client would not wait for: the server asked for longer than maxRetryWaitMs. */
export class RetryLaterError extends AppError {
  readonly retryAt: Date;
  /** Which credential was limited (host and Authorization header), so callers can rotate tokens. */
  readonly key: string | undefined;
  constructor(what: string, reason: string, retryAt: Date, key?: string) {
    super(`${what} was refused (${reason}); retry after ${retryAt.toISOString()}.`, {
      kind: "transient",
      hint: "Run again after that time, or add API tokens to spread the load.",
    });
    this.name = "RetryLaterError";
    this.retryAt = retryAt;
    this.key = key;
  }
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;

type Attempt = { status: number; headers: Headers; text: string } | { error: RequestError };

// JSON only when the content-type says so (application/json, application/vnd.github.star+json, …) or is
// absent (stored ETag bodies, bare servers): a README that begins with `[![badge]` is text, not a malformed
// JSON body to retry.
function isJsonType(type: string): boolean {
  const media = type.split(";")[0]?.trim().toLowerCase() ?? "";
  return media === "" || media === "application/json" || media.endsWith("+json");
}

function parseBody(text: string, headers: Headers): { body: unknown; malformed: boolean } {
  if (text === "") return { body: null, malformed: false };
  const type = String(headers["content-type"] ?? "");
  const looksJson = isJsonType(type) && (type !== "" || /^\s*[[{]/.test(text));
  if (!looksJson) return { body: text, malformed: false };
  try {
    return { body: JSON.parse(text), malformed: false };
  } catch {
    return { body: text, malformed: true };
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? silentLogger;
  const agent = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const limits = new Map<string, LimitFunction>();
  const pausedUntil = new Map<string, number>();
  const bySource: Record<string, SourceCounts> = {};
  const byHost: Record<string, number> = {};

  const limitFor = (key: string) => {
    const limit = limits.get(key) ?? pLimit(options.perHostConcurrency);
    limits.set(key, limit);
    return limit;
  };
  const counts = (source: string) => (bySource[source] ??= { requests: 0, not_modified: 0, retries: 0 });

  async function send(url: string, opts: RequestOptions, etag: string | undefined): Promise<Attempt> {
    try {
      const response = await got(url, {
        method: opts.method ?? "GET",
        headers: {
          "user-agent": options.userAgent,
          ...opts.headers,
          ...(etag ? { "if-none-match": etag } : {}),
        },
        ...(opts.json === undefined ? {} : { json: opts.json }),
        agent,
        timeout: { request: options.timeoutMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        responseType: "text",
      });
      return { status: response.statusCode, headers: response.headers, text: response.body };
    } catch (error) {
      if (error instanceof RequestError) return { error };
      throw error;
    }
  }

  async function request(url: string, opts: RequestOptions): Promise<HttpResult> {
    const host = new URL(url).host;
    // Rate limits belong to a credential, so a pause only holds back requests made with the same one.
    const pauseKey = `${host} ${opts.headers?.authorization ?? ""}`;
    const what = `${opts.method ?? "GET"} ${url} (${opts.source})`;
    const stored = opts.conditional ? await options.etags?.get(url) : undefined;
    const tally = counts(opts.source);
    let waited = false;
    for (let attempt = 0; ; attempt++) {
      // A pause set by another request (or by this one, already slept through) holds back the send.
      const paused = waited ? 0 : (pausedUntil.get(pauseKey) ?? 0) - clock.now().getTime();
      waited = false;
      if (paused > 0) {
        if (paused > options.maxRetryWaitMs)
          throw new RetryLaterError(what, "rate limited", new Date(clock.now().getTime() + paused), pauseKey);
        await sleep(paused);
      }
      const budget = options.budgets?.[opts.source];
      // A conditional request may come back 304, which is free, so only unconditional ones are held back.
      if (budget !== undefined && !stored && tally.requests - tally.not_modified >= budget) {
        throw new AppError(`The ${opts.source} request budget of ${budget} is spent; ${what} was not sent.`, {
          kind: "transient",
          hint: "Raise the budget or run again later; finished batches are kept.",
        });
      }
      // Each source's API has its own politeness limit, even when (as with the simulator) hosts coincide.
      const outcome = await limitFor(`${opts.source} ${host}`)(() => send(url, opts, stored?.etag));
      tally.requests++;
      byHost[host] = (byHost[host] ?? 0) + 1;
      let verdict: Classification & { malformed?: boolean };
      let body: unknown = null;
      if ("error" in outcome) {
        verdict = {
          decision: "retry",
          reason: `network error ${outcome.error.code}: ${outcome.error.message}`,
        };
      } else {
        const parsed = parseBody(outcome.text, outcome.headers);
        body = parsed.body;
        verdict =
          parsed.malformed && outcome.status < 300
            ? { decision: "retry", reason: `${outcome.status} with a malformed JSON body`, malformed: true }
            : classifyResponse(outcome.status, outcome.headers, body, clock.now());
      }
      const status = "error" in outcome ? 0 : outcome.status;
      const headers = "error" in outcome ? {} : outcome.headers;
      if (opts.pending && status === 202)
        return { url, status, decision: "pending", reason: verdict.reason, headers, body };
      switch (verdict.decision) {
        case "ok": {
          const etag = headers.etag;
          if (opts.conditional && options.etags && typeof etag === "string" && !("error" in outcome)) {
            const kept = opts.keep?.(body);
            await options.etags.set(url, etag, kept === undefined ? outcome.text : JSON.stringify(kept));
          }
          return { url, status, decision: "ok", reason: verdict.reason, headers, body };
        }
        case "not_modified": {
          tally.not_modified++;
          if (!stored) throw new AppError(`${what} answered 304 to a request that was not conditional.`);
          const cached = parseBody(stored.body, {}).body;
          // an entry stored whole (before `keep`, or by a connector that kept more) is replaced by what it keeps now
          const kept = opts.keep?.(cached);
          const keptText = kept === undefined ? undefined : JSON.stringify(kept);
          if (keptText !== undefined && keptText !== stored.body)
            await options.etags?.set(url, stored.etag, keptText);
          return { url, status, decision: "not_modified", reason: verdict.reason, headers, body: cached };
        }
        case "skip":
          return { url, status, decision: "skip", reason: verdict.reason, headers, body };
        case "fail":
          throw new AppError(`${what} failed: ${verdict.reason}.`, { kind: "terminal", hint: verdict.hint });
        case "retry": {
          // A body that stays malformed is handed over as its text: the connector's schema then refuses it
          // and quarantines it with its URL, and the run goes on without that entity.
          if (attempt >= options.retries && verdict.malformed)
            return { url, status, decision: "ok", reason: verdict.reason, headers, body };
          if (attempt >= options.retries) {
            throw new AppError(`${what} failed after ${attempt + 1} attempts: ${verdict.reason}.`, {
              kind: "transient",
              hint: "The source is unavailable or overloaded; run again later (finished batches are kept).",
            });
          }
          const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
          const wait = verdict.retryAfterMs ?? Math.round(backoff / 2 + (random() * backoff) / 2);
          const retryAt = new Date(clock.now().getTime() + wait);
          if (verdict.rateLimited) pausedUntil.set(pauseKey, retryAt.getTime());
          if (wait > options.maxRetryWaitMs)
            throw new RetryLaterError(what, verdict.reason, retryAt, pauseKey);
          tally.retries++;
          logger.warn("http: retrying", {
            source: opts.source,
            url,
            reason: verdict.reason,
            wait_ms: wait,
            attempt,
          });
          await sleep(wait);
          waited = true;
        }
      }
    }
  }

  return {
    request,
    stats: () => structuredClone({ bySource, byHost }),
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}
