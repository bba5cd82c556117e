// The shim's Fastify app, routes only (no listening: server.ts does that, tests use app.inject()).
// Every request first passes the caller hook (quota + X-RateLimit-*); every failure, the framework's
// included, leaves through the one error handler as {"detail":{"error":{code,message,request_id}}}.
import { randomBytes } from "node:crypto";
import http from "node:http";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { type Clock, systemClock } from "../core/clock.ts";
import type { Config } from "../core/config.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { QUERY_LIMITS } from "../core/query/limits.ts";
import { renderErrorPage } from "../publish/error-page.ts";
import { HTML_TYPE } from "../publish/html.ts";
import { docsRoute } from "../publish/routes/docs.ts";
import { ROUTES } from "../publish/routes/index.ts";
import { openapiRoute } from "../publish/routes/openapi.ts";
import { queryRoute } from "../publish/routes/query.ts";
import { errorBody } from "../schemas/index.ts";
import { createCallerHook, type KeyVerifier, rateLimitHeaders } from "./caller.ts";
import { ApiError, toApiError } from "./errors.ts";
import { registerFeedbackRoute } from "./feedback/route.ts";
import type { FeedbackStore } from "./feedback/store.ts";
import { trustProxyHops } from "./http/client-address.ts";
import { errorPageOf } from "./http/error-page.ts";
import { createHttpErrors } from "./http/errors.ts";
import { createFastPath, PreparedAnswers } from "./http/fast-path.ts";
import { parseQueryString } from "./http/query-string.ts";
import { JSON_TYPE } from "./http/send.ts";
import { createHttpServer } from "./http/server.ts";
import { reserveAnswer, UnreadAnswers } from "./http/unread.ts";
import { registerKeyRoutes } from "./keys/route.ts";
import type { KeyStore } from "./keys/store.ts";
import { MAX_MCP_ANSWER_BYTES } from "./mcp/answer-size.ts";
import { MCP_ALLOW, MCP_PATH, registerMcpRoute } from "./mcp/http.ts";
import { type QueryService, registerQueryRoute } from "./query/route.ts";
import type { QuotaStore } from "./quota/quota.ts";
import type { ReleaseReader } from "./release-reader.ts";
import { createTimestamp, fastifyPath, registerRoutes } from "./route-handler.ts";

export interface AppOptions {
  config: Pick<Config, "quota" | "trustProxyHops" | "shimServer">;
  release: ReleaseReader;
  quotas: QuotaStore;
  clock?: Clock;
  logger?: Logger;
  /** Bearer key verification; without it (and without keyStore) every key gets 401 invalid_api_key. */
  keys?: KeyVerifier;
  /** The key store: answers POST /api/v1/keys and verifies bearer keys (unless `keys` is given). */
  keyStore?: KeyStore;
  /** The query worker pool and state folder: answers POST /api/v1/query (a 404 without it). */
  query?: QueryService;
  /** Where feedback is stored: answers POST /api/v1/feedback (a 404 without it). */
  feedback?: FeedbackStore;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const { config, release, quotas } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  // Request ids: unique across restarts and instances without a random draw per request.
  const boot = randomBytes(4).toString("hex");
  let sequence = 0;
  const nextRequestId = () => `${boot}-${(++sequence).toString(36)}`;

  const timestamp = createTimestamp(clock);
  const answers = new PreparedAnswers();
  const trustProxy = trustProxyHops(config.trustProxyHops);
  const keys = options.keys ?? options.keyStore;
  const serveFast = createFastPath({
    answers,
    release,
    quotas,
    anonymousLimit: config.quota.anonymous,
    clock,
    timestamp,
    trustProxy,
    keys,
  });

  const httpErrors = createHttpErrors({
    quotas,
    anonymousLimit: config.quota.anonymous,
    clock,
    trustProxy,
    nextRequestId,
    limits: {
      maxHeaderSize: http.maxHeaderSize,
      headersTimeoutMs: config.shimServer.headersTimeoutMs,
      requestTimeoutMs: config.shimServer.requestTimeoutMs,
    },
  });

  const countRequest = createCallerHook({
    anonymousLimit: config.quota.anonymous,
    keyLimits: { free: config.quota.free, email: config.quota.email },
    quotas,
    clock,
    keys,
  });

  /** The one place an error becomes a response. */
  function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    const api = toApiError(error);
    if (api.code === "unavailable") {
      // expected at times (no release yet, the query service busy, a store down): a warning naming why, not a
      // stack trace per request
      logger.warn("request refused: unavailable", {
        request_id: request.id,
        url: request.url,
        reason: api.message,
      });
    } else if (api.status >= 500) {
      const { message, stack } =
        error instanceof Error ? error : { message: String(error), stack: undefined };
      logger.error("request failed", { request_id: request.id, url: request.url, error: message, stack });
    } else {
      logger.debug("request refused", { request_id: request.id, code: api.code });
    }
    reply.code(api.status);
    if (request.quota) reply.headers(rateLimitHeaders(request.quota));
    reply.headers(api.headers);
    reply.header("cache-control", "no-store");
    // a page for people answers a browser's error as a page (api-shim/http/error-page.ts), anyone else's as JSON
    const page = errorPageOf(request);
    if (page) reply.header("vary", "Accept");
    if (page?.links) {
      reply.header("content-type", HTML_TYPE);
      return reply.send(
        renderErrorPage({ status: api.status, code: api.code, message: api.message, links: page.links }),
      );
    }
    reply.header("content-type", JSON_TYPE);
    return reply.send(JSON.stringify(errorBody(api.code, api.message, request.id)));
  }

  const app = Fastify({
    logger: false,
    trustProxy,
    // Requests a prepared answer covers are written by the fast path; Fastify gets every other one.
    serverFactory: (handler) => createHttpServer(config.shimServer, serveFast, httpErrors, handler),
    // Node's refusals below the router (parse errors, oversized headers, timeouts) answered in the envelope.
    clientErrorHandler: httpErrors.clientError,
    requestIdHeader: false,
    genReqId: nextRequestId,
    // Fastify's own 503 while closing would bypass the envelope; in-flight and keep-alive requests are
    // served until app.close() completes instead.
    return503OnClosing: false,
    // A path parameter as long as the request line itself can be, so that the route's own validation answers any length
    // (422 naming the bound): past Fastify's default of 100 it answered 500, past 1,024 a bare 400.
    // Query strings parsed strictly: a value that is not percent-encoded UTF-8 is refused by the route (422) instead of
    // being read as the raw text.
    routerOptions: { maxParamLength: http.maxHeaderSize, querystringParser: parseQueryString },
    // A URL Fastify cannot decode is refused before routing and hooks; count it and answer in the envelope.
    frameworkErrors: (error, request, reply) => {
      countRequest(request, reply, (refusal) => sendError(request, reply, refusal ?? error));
    },
  });
  app.decorateRequest("quota", null);
  app.decorate("preparedAnswers", answers);

  // Every served route's path as a pattern, with the methods it answers, to tell 405 from 404. A dynamic route
  // (keys, query, feedback) is answered only when its store is given; without it, a 404, not a 405 naming a method
  // that fails.
  const patterns = ROUTES.filter(
    (r) =>
      r.kind !== "dynamic" ||
      (r.name === "keys" && options.keyStore !== undefined) ||
      (r.name === "query" && options.query !== undefined) ||
      (r.name === "feedback" && options.feedback !== undefined),
  ).map((r) => ({
    pattern: new RegExp(
      `^${fastifyPath(r.path, r.kind === "file" && r.wildcard)
        .replace(/:\w+/g, "[^/]+")
        .replace("*", ".+")}$`,
    ),
    allow: r.method === "GET" ? "GET, HEAD" : r.method,
  }));
  // the MCP endpoint (not a route of the table): any method but POST is 405 there too, as on the REST paths
  patterns.push({ pattern: new RegExp(`^${MCP_PATH}$`), allow: MCP_ALLOW });
  const isEndpoint = (path: string) => patterns.some((p) => p.pattern.test(path));
  // Answers built per request by these POST routes (up to a megabyte each, unlike the shared prepared pages): each
  // reserves its largest size against its connection and address until its client has taken it (http/unread.ts).
  const unread = new UnreadAnswers();
  const builtPerRequest = new Map<string, number>([
    [MCP_PATH, MAX_MCP_ANSWER_BYTES],
    // the answer's rows and columns; its meta adds a few hundred bytes
    [queryRoute.path, QUERY_LIMITS.maxBytes],
  ]);
  app.addHook("onRequest", (request, reply, done) => {
    countRequest(request, reply, (error) => {
      if (error) return done(error);
      const path = request.url.split("?")[0] ?? "";
      // A trailing slash or an empty segment names no endpoint, on every route alike (the router would otherwise
      // read /projects/x/ as owner x with an empty repo): 404, pointing to the path without it when that is one.
      if (path !== "/" && (path.endsWith("/") || path.includes("//"))) {
        return done(notFound(request.method, path, withoutEmptySegments(path), isEndpoint));
      }
      if (!request.is404) {
        // GETs (prepared pages, shared by every request) pass with one comparison
        const answerBytes =
          request.method === "POST" ? builtPerRequest.get(request.routeOptions.url ?? "") : undefined;
        return done(
          answerBytes === undefined ? undefined : reserveAnswer(unread, request, reply, answerBytes),
        );
      }
      // Refused here, before Fastify would parse a body it has no use for. Fastify routes a known path
      // with another method (even one it does not support) to the 404 handler; the spec's clients deserve
      // 405 with Allow.
      const allowed = patterns.filter((p) => p.pattern.test(path)).map((p) => p.allow);
      done(
        allowed.length > 0
          ? methodNotAllowed(request.method, path, allowed.join(", "))
          : notFound(request.method, path),
      );
    });
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));

  // Reached only if the hook above let an unknown route through; kept so no 404 escapes the envelope.
  app.setNotFoundHandler((request) => {
    throw notFound(request.method, request.url.split("?")[0] ?? "");
  });

  registerRoutes(app, ROUTES, release, timestamp, answers);
  if (options.keyStore)
    registerKeyRoutes(app, { keys: options.keyStore, quotas, config, clock, logger, timestamp });
  if (options.query) registerQueryRoute(app, { ...options.query, release, timestamp });
  if (options.feedback)
    registerFeedbackRoute(app, { store: options.feedback, quotas, clock, logger, timestamp, release });
  registerMcpRoute(app, { release, timestamp, query: options.query, logger });
  return app;
}

/** Where a caller who found no endpoint learns the API: the OpenAPI document and the docs page. */
const API_GUIDE = `every endpoint is listed in the OpenAPI document ${openapiRoute.path} and described at ${docsRoute.path}`;

const shorten = (path: string) => (path.length > 100 ? `${path.slice(0, 100)}…` : path);

function notFound(
  method: string,
  path: string,
  suggestion?: string,
  isEndpoint: (path: string) => boolean = () => false,
): ApiError {
  const instead =
    suggestion !== undefined && isEndpoint(suggestion)
      ? ` (paths take no trailing slash or empty segment: did you mean ${shorten(suggestion)}?)`
      : "";
  return new ApiError("not_found", `No endpoint ${method} ${shorten(path)}${instead}; ${API_GUIDE}.`);
}

/** The path with its empty segments (a doubled or a trailing slash) removed. */
function withoutEmptySegments(path: string): string {
  return `/${path.split("/").filter(Boolean).join("/")}`;
}

function methodNotAllowed(method: string, path: string, allow: string): ApiError {
  return new ApiError("method_not_allowed", `${method} is not allowed on ${path}; use ${allow}.`, { allow });
}
