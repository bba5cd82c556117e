// Node's refusals of a request before it reaches the router (its parser's HPE_* codes and its request timeout,
// reported by the server's clientError event) as the ApiErrors the envelope carries.
import { ApiError } from "../errors.ts";

export interface ClientErrorLimits {
  /** Bytes Node's parser allows for the request line and headers together (http.maxHeaderSize). */
  maxHeaderSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

interface ParserError {
  code?: unknown;
  reason?: unknown;
}

const REQUEST_LINE = "The request line is not `METHOD /path HTTP/1.1`; send a valid HTTP/1.1 request.";
const FRAMING =
  "The request's Content-Length or Transfer-Encoding is invalid, or both are sent; send one valid length or chunked encoding.";
const CHUNKED = "The request's chunked body is malformed; send valid chunks or a Content-Length body.";

// llhttp's codes (Node's http parser), grouped by the part of the request they refuse.
const MESSAGES: Readonly<Record<string, string>> = {
  HPE_INVALID_URL: "The request's target is not a valid path; send `/api/v1/...`.",
  HPE_INVALID_VERSION: "The request's HTTP version is not supported; send HTTP/1.1 (or 1.0).",
  HPE_INVALID_CONSTANT: REQUEST_LINE,
  HPE_STRICT: REQUEST_LINE,
  HPE_CR_EXPECTED: "A line of the request does not end in CRLF; end request lines and headers with \\r\\n.",
  HPE_LF_EXPECTED: "A line of the request does not end in CRLF; end request lines and headers with \\r\\n.",
  HPE_INVALID_HEADER_TOKEN:
    "A header name or value holds a character HTTP does not allow; send names as tokens and values as visible text.",
  HPE_INVALID_CONTENT_LENGTH: FRAMING,
  HPE_UNEXPECTED_CONTENT_LENGTH: FRAMING,
  HPE_INVALID_TRANSFER_ENCODING: FRAMING,
  HPE_INVALID_CHUNK_SIZE: CHUNKED,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: CHUNKED,
  HPE_INVALID_EOF_STATE: "The connection ended before the request was complete; send the whole request.",
  HPE_CLOSED_CONNECTION: "The request came after `Connection: close`; open a new connection for it.",
  HPE_PAUSED_H2_UPGRADE: "HTTP/2 with prior knowledge is not supported; send HTTP/1.1.",
};

/** The ApiError for a clientError; every parser code not named above is a 400 naming the code. */
export function clientErrorToApiError(error: unknown, limits: ClientErrorLimits): ApiError {
  const { code, reason } = (error ?? {}) as ParserError;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new ApiError(
      "request_timeout",
      `The request did not arrive in time (headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms); send it without pausing.`,
    );
  }
  if (code === "HPE_HEADER_OVERFLOW") {
    return new ApiError(
      "headers_too_large",
      `The request line and headers are larger than ${limits.maxHeaderSize} bytes; shorten the URL or the headers.`,
    );
  }
  if (code === "HPE_INVALID_METHOD") {
    // llhttp knows HTTP's registered methods; anything else (FOO) fails here, before a path is read.
    return new ApiError(
      "bad_request",
      reason === "Invalid method encountered"
        ? "The request's method is not an HTTP method; the API answers GET, HEAD and POST."
        : REQUEST_LINE,
    );
  }
  const message = typeof code === "string" ? MESSAGES[code] : undefined;
  return new ApiError(
    "bad_request",
    message ??
      `The request is not valid HTTP/1.1 (${typeof code === "string" ? code : "unknown"}); send a valid request.`,
  );
}
