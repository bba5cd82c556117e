// Responses to requests Fastify never sees, in the same envelope and with the same X-RateLimit-* headers as
// every other error: parser refusals and timeouts (clientError), CONNECT, an Expect other than 100-continue and
// an HTTP/1.1 request without Host; and CORS preflights. None is counted against a quota: the headers show the
// caller's standing.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import proxyAddr from "@fastify/proxy-addr";
import type { Clock } from "../../core/clock.ts";
import { nextUtcMidnight } from "../../core/clock.ts";
import { CORS_HEADERS, PREFLIGHT_HEADERS } from "../../publish/cors.ts";
import { errorBody } from "../../schemas/index.ts";
import { anonymousQuotaKey, rateLimitHeaders } from "../caller.ts";
import { ApiError } from "../errors.ts";
import type { QuotaHit, QuotaStore } from "../quota/quota.ts";
import { type ClientErrorLimits, clientErrorToApiError } from "./client-errors.ts";
import { JSON_TYPE } from "./send.ts";

export interface HttpErrorOptions {
  quotas: QuotaStore;
  anonymousLimit: number;
  clock: Clock;
  trustProxy: false | ((address: string, hop: number) => boolean);
  limits: ClientErrorLimits;
  nextRequestId: () => string;
}

/** The methods some route answers: the Allow of a CONNECT, whose target is a host, not a resource. */
const ALLOW_ANY = "GET, HEAD, POST";
/** How long a socket answered with an error may stay open for the client to read it before it is destroyed. */
const LINGER_MS = 2000;

const ANSWERED = Symbol("answered");
type Answered = Socket & { [ANSWERED]?: true; _httpMessage?: ServerResponse | null };

export function createHttpErrors(options: HttpErrorOptions) {
  const { quotas, anonymousLimit, clock, trustProxy, limits, nextRequestId } = options;
  const address = (req: IncomingMessage) =>
    trustProxy ? proxyAddr.all(req, trustProxy).at(-1) : req.socket.remoteAddress;

  /** The caller's standing, uncounted; the anonymous limit untouched if the store cannot say. */
  function standing(client: string | undefined, now: Date, then: (hit: QuotaHit) => void): void {
    const untouched = () =>
      then({ limit: anonymousLimit, count: 0, remaining: anonymousLimit, resetAt: nextUtcMidnight(now) });
    let hit: QuotaHit | Promise<QuotaHit>;
    try {
      hit = quotas.peek(anonymousQuotaKey(client), anonymousLimit, now);
    } catch {
      untouched();
      return;
    }
    if (hit instanceof Promise) hit.then(then, untouched);
    else then(hit);
  }

  function headersOf(
    api: ApiError,
    hit: QuotaHit,
    length: number,
    now: Date,
    close = true,
  ): Record<string, string> {
    return {
      ...CORS_HEADERS,
      date: now.toUTCString(),
      "content-type": JSON_TYPE,
      "content-length": String(length),
      "cache-control": "no-store",
      ...rateLimitHeaders(hit),
      ...api.headers,
      ...(close ? { connection: "close" } : {}),
    };
  }

  /** Answers on the raw socket once the responses before it are written, then ends the socket. */
  function answerSocket(socket: Answered, api: ApiError, client: string | undefined): void {
    if (socket[ANSWERED]) return;
    socket[ANSWERED] = true;
    // Nothing more is read from a socket being refused: its bytes are drained, not parsed. A CONNECT's socket has
    // no error listener left (Node hands it over): a reset while answering must not become an uncaught error.
    socket.removeAllListeners("data");
    socket.on("error", () => socket.destroy());
    socket.resume();
    const now = clock.now();
    standing(client, now, (hit) =>
      afterInFlight(socket, () => {
        if (!socket.writable) {
          socket.destroy();
          return;
        }
        const body = JSON.stringify(errorBody(api.code, api.message, nextRequestId()));
        const head = Object.entries(headersOf(api, hit, Buffer.byteLength(body), now))
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("");
        socket.end(`HTTP/1.1 ${api.status} ${http.STATUS_CODES[api.status]}\r\n${head}\r\n${body}`);
        socket.setTimeout(LINGER_MS, () => socket.destroy());
      }),
    );
  }

  /** Answers through Node's response object (a parsed request: Expect, missing Host); the socket closes after. */
  /** Answers a parsed request; the connection is closed unless `keepAlive` (a well-formed request refused). */
  function answerResponse(req: IncomingMessage, res: ServerResponse, api: ApiError, keepAlive = false): void {
    const now = clock.now();
    standing(address(req), now, (hit) => {
      const body = JSON.stringify(errorBody(api.code, api.message, nextRequestId()));
      res.writeHead(api.status, headersOf(api, hit, Buffer.byteLength(body), now, !keepAlive));
      res.end(req.method === "HEAD" ? undefined : body);
    });
  }

  return {
    /**
     * A CORS preflight (OPTIONS with Access-Control-Request-Method): 204 with the policy (publish/cors.ts) and the
     * caller's standing, uncounted — a browser sends it on its own before a request with a key or a JSON body.
     */
    preflight(req: IncomingMessage, res: ServerResponse): void {
      standing(address(req), clock.now(), (hit) => {
        res.writeHead(204, { ...PREFLIGHT_HEADERS, ...rateLimitHeaders(hit) });
        res.end();
      });
    },
    /** Fastify's clientErrorHandler: a request Node's parser refused, or one that stalled. */
    clientError(error: NodeJS.ErrnoException, socket: Socket): void {
      // A connection that broke (ECONNRESET, EPIPE, …) has no one to answer; only the parser's refusals and the
      // request timeout are the client's requests to answer.
      const answerable = error.code?.startsWith("HPE_") || error.code === "ERR_HTTP_REQUEST_TIMEOUT";
      if (!answerable || socket.destroyed) {
        socket.destroy();
        return;
      }
      const raw = (error as { rawPacket?: Buffer }).rawPacket;
      answerSocket(socket, clientErrorToApiError(error, limits), socketClient(socket, raw, trustProxy));
    },
    /** CONNECT: this is no proxy. */
    connect(req: IncomingMessage, socket: Socket): void {
      const api = new ApiError(
        "method_not_allowed",
        `CONNECT is not allowed: this is not a proxy; the API answers ${ALLOW_ANY} on /api/v1/ paths.`,
        { allow: ALLOW_ANY },
      );
      answerSocket(socket, api, address(req));
    },
    /** An Expect other than 100-continue (which Node answers itself before the request goes on). */
    checkExpectation(req: IncomingMessage, res: ServerResponse): void {
      answerResponse(
        req,
        res,
        new ApiError(
          "expectation_failed",
          "Only `Expect: 100-continue` is supported; drop the Expect header.",
        ),
      );
    },
    /**
     * RFC 9112 §3.2: an HTTP/1.1 request without Host, or with more than one, is refused with 400 (Node's own
     * refusal of a missing one has no body; it accepts several, keeping the first).
     */
    refuseBadHost(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return false;
      let hosts = 0;
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if ((req.rawHeaders[i] as string).toLowerCase() === "host") hosts++;
      }
      if (hosts === 1) return false;
      const message =
        hosts === 0
          ? "An HTTP/1.1 request must carry a Host header."
          : `An HTTP/1.1 request must carry one Host header, not ${hosts}.`;
      answerResponse(req, res, new ApiError("bad_request", message));
      return true;
    },
    /** RFC 9112 §3.2.4: the asterisk form ("*") names the server itself, for OPTIONS only; 400 for any other method. */
    refuseAsterisk(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.url !== "*" || req.method === "OPTIONS") return false;
      const message = `The request target "*" is for OPTIONS only; ${req.method} needs a path.`;
      // the request itself was read whole: answered, and the connection goes on
      answerResponse(req, res, new ApiError("bad_request", message), true);
      return true;
    },
  };
}

/**
 * Runs `then` once the responses to earlier requests on the socket (pipelined) are written, so an error response
 * never lands inside or before them. A response whose own request is still arriving is the stalled one: no wait.
 */
function afterInFlight(socket: Answered, then: () => void): void {
  const current = socket._httpMessage;
  // A response still attached has not finished (Node detaches it on 'finish' and attaches the next queued one).
  if (!current || (!current.headersSent && !current.req.complete)) {
    then();
    return;
  }
  let done = false;
  const next = () => {
    if (done) return;
    done = true;
    setImmediate(() => afterInFlight(socket, then));
  };
  current.once("finish", next);
  current.once("close", next);
}

/** The client's address as the parser left it: X-Forwarded-For read from the refused bytes when proxies are trusted. */
function socketClient(
  socket: Socket,
  raw: Buffer | undefined,
  trustProxy: false | ((address: string, hop: number) => boolean),
): string | undefined {
  if (!trustProxy) return socket.remoteAddress;
  const forwarded = raw
    ? /\r\nx-forwarded-for:[ \t]*([^\r\n]*)/i.exec(raw.toString("latin1"))?.[1]
    : undefined;
  const req = { headers: forwarded ? { "x-forwarded-for": forwarded } : {}, socket, connection: socket };
  return proxyAddr.all(req as unknown as IncomingMessage, trustProxy).at(-1);
}
