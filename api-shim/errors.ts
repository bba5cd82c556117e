// The shim's one error type and its mapping: every failure, ours or the framework's, becomes one code of
// the closed list in schemas/errors.ts with its status. The error handler in app.ts is the only user.
import { AppError } from "../core/errors.ts";
import { type ErrorCode, errorStatus } from "../schemas/index.ts";

export class ApiError extends AppError {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After on 429 or Allow on 405. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message, { kind: code === "unavailable" ? "transient" : "terminal", stage: "api" });
    this.name = "ApiError";
    this.code = code;
    this.status = errorStatus(code);
    this.headers = headers;
  }
}

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
}

/** The ApiError for anything thrown while handling a request; unknown failures are internal_error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const { code, statusCode } = (error ?? {}) as FrameworkError;
  switch (code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError("invalid_json", "The request body is not valid JSON.");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError(
        "bad_request",
        "The request body is not as long as its Content-Length says; send the exact length.",
      );
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large", "The request body is too large.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("unsupported_media_type", "Send the request body as application/json.");
    case "FST_ERR_BAD_URL":
      return new ApiError(
        "not_found",
        "The URL's path is not validly percent-encoded, so it names no endpoint.",
      );
    case "FST_ERR_NOT_FOUND":
      return new ApiError("not_found", "No such resource.");
  }
  // Body parsers report a JSON syntax error as a SyntaxError carrying status 400.
  if (error instanceof SyntaxError && statusCode === 400) {
    return new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  if (statusCode === 404) return new ApiError("not_found", "No such resource.");
  if (statusCode === 413) return new ApiError("payload_too_large", "The request body is too large.");
  if (statusCode === 415)
    return new ApiError("unsupported_media_type", "Send the request body as application/json.");
  // Any other refusal of the request by the framework, e.g. a body stream that broke off (Fastify marks it 400):
  // the client's fault, never a 5xx.
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return new ApiError(
      "bad_request",
      "The request could not be read; send a complete, valid HTTP/1.1 request.",
    );
  }
  return new ApiError("internal_error", "The server failed to handle this request; it has been logged.");
}
