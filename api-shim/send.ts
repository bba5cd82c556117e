// Writes a 200 JSON list response straight to the socket: the prepared chunks (views into a records file)
// and the tail with this response's timestamp. Fastify's reply.send takes one payload, which would mean
// copying every page into a fresh buffer; measured, that copy, and the garbage it leaves, cost more than
// everything else the shim does per request.
import type { FastifyReply, FastifyRequest } from "fastify";
import { type ListBody, listByteLength, listTail } from "../publish/envelope.ts";
import { rateLimitHeaders } from "./caller.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

export function sendList(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ListBody,
  timestamp: string,
  cacheControl: string,
): void {
  const headers: Record<string, string | number> = request.quota ? rateLimitHeaders(request.quota) : {};
  headers["content-type"] = JSON_TYPE;
  headers["cache-control"] = cacheControl;
  headers["content-length"] = listByteLength(body, timestamp);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, headers);
  // Corked, everything leaves in one writev; the tail stays a string (no Buffer made for it in JS).
  // For HEAD, Node writes the headers only.
  res.cork();
  for (const chunk of body.chunks) res.write(chunk);
  res.end(listTail(body, timestamp));
  res.uncork();
}
