// The parts of the OpenAPI document every operation shares: the bearer scheme, the rate-limit and caching headers,
// the envelope's meta objects, the error body and one response per error status, its codes listed from the one
// error table (schemas/errors.ts).
import { z } from "zod";
import {
  ERROR_STATUS,
  type ErrorCode,
  errorBodySchema,
  itemMetaSchema,
  type JsonSchema,
  listMetaSchema,
  responseJsonSchema,
} from "../schemas/index.ts";

/** The version of the interface (SPEC.md "Versioning"): the path says v1, the document 1.0.0. */
export const API_VERSION = "1.0.0";

export interface OpenApiComponents {
  securitySchemes: Record<string, unknown>;
  headers: Record<string, unknown>;
  schemas: Record<string, JsonSchema>;
  responses: Record<string, unknown>;
}

const bulkMetaSchema = listMetaSchema.extend({
  missing: z
    .array(z.string())
    .describe("The names asked that match no tracked project, exactly as they were asked"),
});

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * The quota rule of files served as they are (api-shim/caller.ts): what a Parquet or Arrow reader's HEAD and ranged
 * GETs cost. Stated on each file operation and in the document's description.
 */
export const FILE_READ_QUOTA =
  "Quota: reading a file costs one request per file per caller per day, however many HEAD and ranged GET requests the reader sends (DuckDB, pandas, polars and Arrow send several); the first is counted, the others that day are free and served even past the quota.";

/** What an uncounted route's description says (badges, fetched by image proxies from shared addresses). */
export const UNCOUNTED =
  "Quota: never counted; X-RateLimit-* show where the caller stands, unchanged, and it is served even past the quota.";

/** What a page for people says of its errors (RouteSpec.errorPage, api-shim/http/error-page.ts). */
export const ERROR_PAGES =
  "Errors: a browser (an Accept naming text/html more highly than JSON) gets an HTML page with the same status, the message and links onward; any other client gets the JSON error envelope.";

/** Headers on every response, errors included. */
export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": ref("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": ref("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": ref("headers", "X-RateLimit-Reset"),
};

/** What each error status means here; the codes come from the error table. */
const STATUS_TEXT: Readonly<Record<number, [string, string]>> = {
  400: [
    "BadRequest",
    "The request is not valid HTTP/1.1 (or an HTTP/1.1 request lacks Host), its body is not JSON, or the SQL query was refused",
  ],
  401: [
    "InvalidApiKey",
    "The bearer key is malformed, unknown or revoked (a call without a key is never refused)",
  ],
  404: ["NotFound", "Nothing is found at this path or by this name; the message says where to look"],
  405: ["MethodNotAllowed", "The path exists, but not for this method"],
  408: ["RequestTimeout", "The request's headers or body did not arrive in time; the connection is closed"],
  413: ["PayloadTooLarge", "The request body is larger than this endpoint accepts"],
  415: ["UnsupportedMediaType", "The request body is not application/json"],
  416: [
    "RangeNotSatisfiable",
    "The Range header asks for bytes outside the file or is not a byte range; Content-Range gives the file's size",
  ],
  417: ["ExpectationFailed", "The request carries an Expect header other than 100-continue"],
  422: [
    "Unprocessable",
    "A parameter or body field is missing, unknown or out of range; the message names it and the allowed values",
  ],
  429: [
    "RateLimited",
    "The daily quota is used up; it resets at 00:00 UTC (see Retry-After and X-RateLimit-Reset)",
  ],
  431: ["HeadersTooLarge", "The request line and headers together are larger than the server accepts"],
  500: ["InternalError", "The service failed; the request may be retried"],
  503: [
    "Unavailable",
    "The service cannot answer now (a release or quota store is unreachable, or every query worker is busy); retry later, after Retry-After when it is given",
  ],
  504: [
    "GatewayTimeout",
    "The SQL query ran past its deadline and was stopped; sent again as it is, it runs as long: narrow it (WHERE, LIMIT, aggregate earlier)",
  ],
};

function errorResponse(status: number): Record<string, unknown> {
  const [, text] = STATUS_TEXT[status] as [string, string];
  const codes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
  const headers: Record<string, unknown> = { ...RATE_LIMIT_HEADERS };
  if (status === 429) headers["Retry-After"] = ref("headers", "Retry-After");
  if (status === 416) headers["Content-Range"] = ref("headers", "Content-Range");
  return {
    description: `${text}. Codes: ${codes.join(", ")}.`,
    headers,
    content: {
      "application/json": {
        schema: {
          allOf: [ref("schemas", "ErrorBody")],
          properties: {
            detail: { properties: { error: { properties: { code: { enum: codes } } } } },
          },
        },
        examples: Object.fromEntries(
          codes.map((code) => [
            code,
            { value: { detail: { error: { code, message: EXAMPLE_MESSAGES[code] } } } },
          ]),
        ),
      },
    },
  };
}

const EXAMPLE_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  invalid_domain: '"blockchain" is not a supported domain. Supported domains: mcp, agents, rag, …',
  invalid_parameter: "limit must be an integer from 1 to 500.",
  missing_parameter: "domain is required.",
  invalid_body: "email must be an e-mail address.",
  invalid_json: "The request body is not valid JSON.",
  bad_request: "An HTTP/1.1 request must carry a Host header.",
  query_rejected: "Only one SELECT or WITH statement may be run.",
  query_timeout: "The query ran past its deadline and was stopped.",
  invalid_api_key: "The API key is not valid. Create one with POST /api/v1/keys, or call without a key.",
  not_found: "No project named acme--nothing; search with /api/v1/projects?q=.",
  method_not_allowed: "POST is not allowed on /api/v1/quality; use GET.",
  request_timeout:
    "The request did not arrive in time (headers within 10000 ms, the whole request within 30000 ms); send it without pausing.",
  payload_too_large: "The request body is larger than 16 KiB.",
  unsupported_media_type: "The request body must be application/json.",
  range_not_satisfiable:
    "The Range bytes=200000- starts past the end of this file (138252 bytes); ask for a range inside it.",
  expectation_failed: "Only `Expect: 100-continue` is supported; drop the Expect header.",
  headers_too_large:
    "The request line and headers are larger than 16384 bytes; shorten the URL or the headers.",
  rate_limit_exceeded: "The daily quota of 100 requests is used up; it resets at 2026-11-26T00:00:00Z.",
  internal_error: "Something failed on our side; the request can be retried.",
  unavailable: "The service cannot answer now; retry in a minute.",
};

/** Responses by status, referenced from the operations. */
export const errorResponses: Readonly<Record<string, unknown>> = {
  "304": ref("responses", "NotModified"),
  ...Object.fromEntries(
    Object.entries(STATUS_TEXT).map(([status, [name]]) => [status, ref("responses", name)]),
  ),
};

function schema(zod: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = responseJsonSchema(zod);
  return rest;
}

/** Fresh components for one document (operations add their record schemas to `schemas`). */
export function openApiComponents(): OpenApiComponents {
  return {
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description:
          "Optional everywhere. Authorization: Bearer pis_… raises the daily quota from the anonymous 100 to 1,000 (or 10,000 for a key created with an e-mail). A malformed, unknown or revoked key is refused with 401 invalid_api_key.",
      },
    },
    headers: {
      "X-RateLimit-Limit": {
        description: "The caller's daily quota",
        schema: { type: "integer", minimum: 0 },
      },
      "X-RateLimit-Remaining": {
        description: "Requests left today",
        schema: { type: "integer", minimum: 0 },
      },
      "X-RateLimit-Reset": {
        description: "When the quota resets: the next midnight UTC, ISO 8601",
        schema: { type: "string", format: "date-time" },
      },
      "Retry-After": {
        description: "Seconds until the quota resets",
        schema: { type: "integer", minimum: 0 },
      },
      ETag: {
        description: "Strong validator of the body; send it back in If-None-Match to get 304 Not Modified",
        schema: { type: "string" },
      },
      "Accept-Ranges": {
        description: "`bytes`: the file may be read in parts with Range (HTTP readers of Parquet do)",
        schema: { type: "string", const: "bytes" },
      },
      "Content-Range": {
        description:
          "206: the range sent and the file's size (`bytes 0-99/138252`); 416: the file's size (`bytes */138252`)",
        schema: { type: "string" },
      },
    },
    schemas: {
      ErrorBody: schema(errorBodySchema),
      ItemMeta: schema(itemMetaSchema),
      ListMeta: schema(listMetaSchema),
      BulkMeta: schema(bulkMetaSchema),
    },
    responses: {
      NotModified: {
        description: "The body would be the one whose ETag was sent in If-None-Match",
        headers: { ...RATE_LIMIT_HEADERS, ETag: ref("headers", "ETag") },
      },
      ...Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, [name]]) => [name, errorResponse(Number(status))]),
      ),
    },
  };
}
