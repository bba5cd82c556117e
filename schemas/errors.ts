// The closed list of error codes with their HTTP statuses (DESIGN.md "Errors") and the error body
// {"detail":{"error":{"code","message","request_id"?}}} that every non-2xx response carries.
import { z } from "zod";

/** Every error code the service may return, with its HTTP status. Nothing outside this table is sent. */
export const ERROR_STATUS = {
  invalid_domain: 422,
  invalid_parameter: 422,
  missing_parameter: 422,
  invalid_body: 422,
  invalid_json: 400,
  // Refused by the HTTP layer before routing: a request Node's parser rejects, an HTTP/1.1 request without Host,
  // a stalled request, an Expect other than 100-continue, a request line and headers past the size limit.
  bad_request: 400,
  query_rejected: 400,
  invalid_api_key: 401,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // A Range a file cannot satisfy (past its end, or not a byte range): Content-Range names the file's size.
  range_not_satisfiable: 416,
  expectation_failed: 417,
  headers_too_large: 431,
  rate_limit_exceeded: 429,
  internal_error: 500,
  unavailable: 503,
  // A SQL query that ran past its deadline: the shim's worker, its upstream, gave no answer in time. Not 400 (the
  // query is valid, and a lighter load or a narrower query answers) nor 503 with Retry-After (the same query sent
  // again runs as long): 504 says the time ran out, and the message says how to narrow the query. A query that only
  // waited in the queue past its deadline is 503 unavailable with Retry-After instead: the server was busy.
  query_timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export function errorStatus(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export const errorCodeSchema = z.enum(ERROR_CODES).describe("Machine-readable error code");

export const errorBodySchema = z
  .strictObject({
    detail: z.strictObject({
      error: z.strictObject({
        code: errorCodeSchema,
        message: z.string().min(1).describe("Human-readable message naming the parameter and allowed values"),
        request_id: z.string().min(1).optional().describe("Identifier of the request, for support"),
      }),
    }),
  })
  .describe("Error response body");

export type ErrorBody = z.infer<typeof errorBodySchema>;

// A safety net, not the main defence: messages are written not to include caller data that could be
// secret, but if one slips through, API keys and e-mail addresses are masked before leaving the service.
const KEY_TEXT = /\bpis_[A-Za-z0-9]+/g;
const EMAIL_TEXT = /[^\s"'<>(),;:]+@[^\s"'<>(),;:]+\.[A-Za-z]{2,}/g;

/** Masks API keys and e-mail addresses in a message. */
export function redactSecrets(message: string): string {
  return message.replace(KEY_TEXT, "pis_…").replace(EMAIL_TEXT, "<e-mail>");
}

/** The error body for a code and message (secrets masked), with an optional request id. */
export function errorBody(code: ErrorCode, message: string, requestId?: string): ErrorBody {
  const error: ErrorBody["detail"]["error"] = { code, message: redactSecrets(message) };
  if (requestId !== undefined) error.request_id = requestId;
  return { detail: { error } };
}
