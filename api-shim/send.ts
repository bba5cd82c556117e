// Writes a 200 JSON response made of several chunks straight to the socket. Fastify's reply.send takes one
// payload, which would mean copying every page into a fresh buffer; measured, that copy (and writing from
// memory that is always new) cost more than everything else the shim does per request.
import type { FastifyReply, FastifyRequest } from "fastify";
import { rateLimitHeaders } from "./caller.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

export function sendChunks(
  request: FastifyRequest,
  reply: FastifyReply,
  chunks: readonly Buffer[],
  byteLength: number,
  cacheControl: string,
): void {
  const headers: Record<string, string | number> = request.quota ? rateLimitHeaders(request.quota) : {};
  headers["content-type"] = JSON_TYPE;
  headers["cache-control"] = cacheControl;
  headers["content-length"] = byteLength;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, headers);
  // Corked, the chunks leave in one writev; for HEAD, Node writes the headers only.
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
  res.uncork();
}
