// Writes 200 and 304 responses straight to the socket: a prepared body's chunks (views into a records file) and
// the tail with this response's timestamp (release files: send-file.ts). Fastify's reply.send takes one payload,
// which would mean copying every page into a fresh buffer; measured, that copy, and the garbage it leaves, cost
// more than everything else the shim does per request.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CORS_HEADERS } from "../../publish/cors.ts";
import { type Body, bodyByteLength, bodyTail } from "../../publish/envelope.ts";
import { rateLimitHeaders } from "../caller.ts";
import type { QuotaHit } from "../quota/quota.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

/** Whether the request's If-None-Match names `etag` (or is "*"); weak comparison, as RFC 9110 asks for it. */
export function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

function baseHeaders(quota: QuotaHit | null, etag: string, cacheControl: string) {
  const headers: Record<string, string | number> = quota ? rateLimitHeaders(quota) : {};
  // the fast path's responses never pass through the server's own CORS headers (http-server.ts)
  Object.assign(headers, CORS_HEADERS);
  headers.etag = etag;
  headers["cache-control"] = cacheControl;
  // an answer counted against its caller carries that caller's quota: a cache (the browser's) keeps it per key
  if (cacheControl.startsWith("private")) headers.vary = "Authorization";
  return headers;
}

export function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Body,
  timestamp: string,
  cacheControl: string,
): void {
  reply.hijack();
  writeBody(request.raw, reply.raw, request.quota, body, timestamp, cacheControl);
}

/** Writes a prepared body (or 304) on the raw response: the shim's route handler and its fast path share it. */
export function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  quota: QuotaHit | null,
  body: Body,
  timestamp: string,
  cacheControl: string,
): void {
  const headers = baseHeaders(quota, body.etag, cacheControl);
  if (notModified(req.headers["if-none-match"], body.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers["content-type"] = body.raw?.contentType ?? JSON_TYPE;
  headers["content-length"] = bodyByteLength(body, timestamp);
  res.writeHead(200, headers);
  headFirst(req, res);
  // Corked, everything leaves in one writev; the tail stays a string (no Buffer made for it in JS).
  // For HEAD, Node writes the headers only.
  res.cork();
  for (const chunk of body.chunks) res.write(chunk);
  res.end(bodyTail(body, timestamp));
  res.uncork();
}

/**
 * Node puts a response's head in front of what is already queued for it when its first body chunk is a Buffer; on a
 * pipelined request with `Expect: 100-continue` that is Node's own 100 Continue, which then lands inside the 200
 * (found by test/fuzz.test.ts). Sending the head alone first keeps the order; only such requests pay for it.
 */
export function headFirst(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect !== undefined) res.flushHeaders();
}
