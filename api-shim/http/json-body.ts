// The JSON bodies of the shim's own POST routes (keys, query, feedback), parsed in the route's encapsulated scope: only
// application/json (anything else is 415), a size cap (413), whitespace read as no body, bad JSON as 400 in the
// envelope; and the caller a request counts for, to bound what one caller may do at once or a day.
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { anonymousQuotaKey } from "../caller.ts";
import { ApiError } from "../errors.ts";

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Parses JSON bodies of up to `limitBytes` in `scope` (a scope from app.register), and refuses a query string there:
 * these routes take everything in the body, and a parameter silently ignored misleads (GETs refuse unknown ones too).
 */
export function acceptJsonBodies(scope: FastifyInstance, limitBytes: number): void {
  scope.addHook("onRequest", async (request) => {
    const names = [...new Set(Object.keys(request.query as Record<string, unknown>))];
    if (names.length === 0) return;
    const path = request.url.split("?")[0];
    throw new ApiError(
      "invalid_parameter",
      `${request.method} ${path} takes no query parameters (got ${names.map((n) => JSON.stringify(n.length > 40 ? `${n.slice(0, 40)}…` : n)).join(", ")}); send its fields in the JSON body.`,
    );
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: limitBytes },
    (_request, text, done) => {
      if (String(text).trim() === "") return done(null, undefined);
      try {
        done(null, JSON.parse(String(text)));
      } catch {
        done(new ApiError("invalid_json", "The request body is not valid JSON."), undefined);
      }
    },
  );
}

/**
 * Who the request is for: a hash of its bearer key (the caller hook has already accepted it) or, without one, its
 * client address as the anonymous quota counts it. A hash, so the key itself is never kept in a map or a file.
 */
export function callerKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) return anonymousQuotaKey(request.ip);
  // the token alone, so "bearer  K" and "Bearer K" are one caller
  const token = BEARER.exec(header)?.[1] ?? header.trim();
  return `key:${createHash("sha256").update(token).digest("hex").slice(0, 32)}`;
}

/** Who runs a query: the caller, and its client address, whose queries over all its keys are bounded too. */
export function queryCaller(request: FastifyRequest): { key: string; address: string } {
  return { key: callerKey(request), address: anonymousQuotaKey(request.ip) };
}
