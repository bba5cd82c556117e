// toApiError and clientErrorToApiError: Fastify's and Node's refusals become codes of the closed list, a client's
// fault never a 5xx; only what the server itself failed at is internal_error.
import { errorCodes } from "fastify";
import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "./errors.ts";
import { clientErrorToApiError } from "./http/client-errors.ts";

const codeOf = (error: unknown) => {
  const api = toApiError(error);
  return [api.status, api.code];
};

describe("toApiError", () => {
  it("maps Fastify's body and URL refusals", () => {
    expect(codeOf(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY())).toEqual([400, "invalid_json"]);
    expect(codeOf(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY())).toEqual([400, "invalid_json"]);
    expect(codeOf(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())).toEqual([400, "bad_request"]);
    expect(codeOf(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())).toEqual([413, "payload_too_large"]);
    expect(codeOf(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE("text/plain"))).toEqual([
      415,
      "unsupported_media_type",
    ]);
    expect(codeOf(new errorCodes.FST_ERR_BAD_URL("/%zz"))).toEqual([404, "not_found"]);
  });

  it("answers a body stream that broke off (Fastify marks it 400) with 400, any other 4xx too", () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET", statusCode: 400 });
    expect(toApiError(aborted)).toMatchObject({
      status: 400,
      code: "bad_request",
      message: "The request could not be read; send a complete, valid HTTP/1.1 request.",
    });
    expect(codeOf(Object.assign(new Error("x"), { statusCode: 418 }))).toEqual([400, "bad_request"]);
  });

  it("keeps an ApiError and makes anything else internal_error", () => {
    const own = new ApiError("not_found", "No project named x.");
    expect(toApiError(own)).toBe(own);
    expect(codeOf(new errorCodes.FST_ERR_ASYNC_CONSTRAINT())).toEqual([500, "internal_error"]);
    expect(codeOf(new TypeError("x is undefined"))).toEqual([500, "internal_error"]);
    expect(codeOf(undefined)).toEqual([500, "internal_error"]);
  });
});

describe("clientErrorToApiError", () => {
  const limits = { maxHeaderSize: 16_384, headersTimeoutMs: 300, requestTimeoutMs: 600 };
  const parse = (code: string, reason = "") =>
    clientErrorToApiError(Object.assign(new Error(reason), { code, reason }), limits);

  it("gives a status and a message saying what to do for each of Node's refusals", () => {
    expect(parse("ERR_HTTP_REQUEST_TIMEOUT")).toMatchObject({ status: 408, code: "request_timeout" });
    expect(parse("HPE_HEADER_OVERFLOW")).toMatchObject({
      status: 431,
      code: "headers_too_large",
      message: "The request line and headers are larger than 16384 bytes; shorten the URL or the headers.",
    });
    expect(parse("HPE_INVALID_METHOD", "Invalid method encountered").message).toBe(
      "The request's method is not an HTTP method; the API answers GET, HEAD and POST.",
    );
    expect(parse("HPE_INVALID_METHOD", "Expected space after method").message).toBe(
      "The request line is not `METHOD /path HTTP/1.1`; send a valid HTTP/1.1 request.",
    );
    expect(parse("HPE_SOMETHING_NEW")).toMatchObject({
      status: 400,
      code: "bad_request",
      message: "The request is not valid HTTP/1.1 (HPE_SOMETHING_NEW); send a valid request.",
    });
  });
});
