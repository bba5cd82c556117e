// The Node HTTP server under Fastify (its serverFactory): the timeouts from config, the CORS headers on every response
// and the answer to preflights, the fast path first, and the envelope for what Node would otherwise answer itself
// (missing Host, Expect, CONNECT; clientError is Fastify's clientErrorHandler option, see app.ts).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Config } from "../../core/config.ts";
import { CORS_HEADERS } from "../../publish/cors.ts";
import type { createHttpErrors } from "./errors.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type ServeFast = (req: IncomingMessage, res: ServerResponse, fallback: Handler) => void;

/** Expired requests are looked for this many times per headers timeout (Node's default is every 30 s). */
const CHECKS_PER_TIMEOUT = 4;
/** Idle connections are looked for this many times per idle timeout. */
const SWEEPS_PER_IDLE_TIMEOUT = 4;

export function createHttpServer(
  timeouts: Config["shimServer"],
  serveFast: ServeFast,
  httpErrors: ReturnType<typeof createHttpErrors>,
  handler: Handler,
): http.Server {
  const withCors: Handler = (req, res) => {
    for (const name in CORS_HEADERS) res.setHeader(name, CORS_HEADERS[name] as string);
    handler(req, res);
  };
  const server = http.createServer(
    {
      // Node's own refusal of a Host-less HTTP/1.1 request has no body: refuseBadHost answers it instead.
      requireHostHeader: false,
      connectionsCheckingInterval: Math.ceil(timeouts.headersTimeoutMs / CHECKS_PER_TIMEOUT),
    },
    (req, res) => {
      if (httpErrors.refuseBadHost(req, res) || httpErrors.refuseAsterisk(req, res)) return;
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
        httpErrors.preflight(req, res);
        return;
      }
      // Without an 'upgrade' listener Node serves an Upgrade request as a plain one (as it should: curl --http2
      // asks for h2c), but its parser drops the bytes that follow it on the connection; closing after the response
      // tells the client to send pipelined requests again rather than wait for answers that never come.
      if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
      // every response, errors included, may be read by a page of any origin (publish/cors.ts): the fast path
      // writes the headers with its own (send.ts), everything else gets them here first
      serveFast(req, res, withCors);
    },
  );
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  sweepIdleConnections(server, timeouts.idleTimeoutMs);
  // Without a listener Node destroys a CONNECT's socket unanswered and answers a foreign Expect with a bare 417.
  server.on("connect", httpErrors.connect);
  server.on("checkExpectation", httpErrors.checkExpectation);
  return server;
}

/**
 * A connection on which nothing has moved (no byte read, none written) for `idleMs` is destroyed: a client that
 * stopped reading its answers releases the bytes waiting for it. Node's own `server.timeout` does it with a timer on
 * every socket, refreshed on each read and write (measured, a fiftieth of a small answer's time); a sweep a few times
 * per timeout reads two counters per connection instead, and closes an idle one between `idleMs` and 1.25 × `idleMs`.
 * A connection whose request the server is still answering (a query waiting for a worker, its response not begun) is
 * not idle: the client is waiting on us, and the route's own deadline bounds that wait. Node keeps the response in
 * progress on the socket as `_httpMessage` (since Node 0.x); reading it costs nothing per request.
 */
export function sweepIdleConnections(server: http.Server, idleMs: number): void {
  const watched = new Map<Socket, { moved: number; since: number }>();
  server.on("connection", (socket: Socket) => {
    watched.set(socket, { moved: 0, since: Date.now() });
    socket.once("close", () => watched.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, seen] of watched) {
        const moved = socket.bytesRead + socket.bytesWritten;
        const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (moved !== seen.moved || (answering && !answering.headersSent)) {
          seen.moved = moved;
          seen.since = now;
        } else if (now - seen.since >= idleMs) socket.destroy();
      }
    },
    Math.ceil(idleMs / SWEEPS_PER_IDLE_TIMEOUT),
  );
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
}
