// The closed error-code table and the error body every non-2xx response carries.
import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ERROR_STATUS,
  errorBody,
  errorBodySchema,
  errorStatus,
  redactSecrets,
} from "./errors.ts";

describe("error codes", () => {
  it("maps each code to the status DESIGN.md gives (the HTTP layer's four and the file routes' 416), and nothing else", () => {
    expect(Object.entries(ERROR_STATUS)).toEqual([
      ["invalid_domain", 422],
      ["invalid_parameter", 422],
      ["missing_parameter", 422],
      ["invalid_body", 422],
      ["invalid_json", 400],
      ["bad_request", 400],
      ["query_rejected", 400],
      ["invalid_api_key", 401],
      ["not_found", 404],
      ["method_not_allowed", 405],
      ["request_timeout", 408],
      ["payload_too_large", 413],
      ["unsupported_media_type", 415],
      ["range_not_satisfiable", 416],
      ["expectation_failed", 417],
      ["headers_too_large", 431],
      ["rate_limit_exceeded", 429],
      ["internal_error", 500],
      ["unavailable", 503],
      ["query_timeout", 504],
    ]);
    expect(ERROR_CODES).toHaveLength(20);
    expect(errorStatus("rate_limit_exceeded")).toBe(429);
  });
});

describe("errorBody", () => {
  it("builds the nested detail.error shape", () => {
    expect(errorBody("not_found", "No project with slug x.")).toEqual({
      detail: { error: { code: "not_found", message: "No project with slug x." } },
    });
    expect(errorBody("invalid_domain", "m", "req-1")).toEqual({
      detail: { error: { code: "invalid_domain", message: "m", request_id: "req-1" } },
    });
  });

  it("produces bodies the schema accepts", () => {
    for (const code of ERROR_CODES) {
      expect(errorBodySchema.safeParse(errorBody(code, "Something failed.", "abc")).success).toBe(true);
    }
  });

  it("rejects unknown codes, extra fields and empty messages", () => {
    const ok = { detail: { error: { code: "not_found", message: "gone" } } };
    expect(errorBodySchema.safeParse(ok).success).toBe(true);
    expect(errorBodySchema.safeParse({ detail: { error: { code: "teapot", message: "x" } } }).success).toBe(
      false,
    );
    expect(errorBodySchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(errorBodySchema.safeParse({ detail: { error: { code: "not_found", message: "" } } }).success).toBe(
      false,
    );
  });

  it("masks API keys and e-mail addresses that slip into a message", () => {
    const key = `pis_${"a1B2".repeat(9)}`;
    expect(redactSecrets(`Key ${key} is unknown.`)).toBe("Key pis_… is unknown.");
    expect(redactSecrets("Contact jane.doe+ai@example.co.uk now")).toBe("Contact <e-mail> now");
    expect(errorBody("invalid_api_key", `bad ${key}`).detail.error.message).toBe("bad pis_…");
    expect(redactSecrets("limit must be an integer from 1 to 500.")).toBe(
      "limit must be an integer from 1 to 500.",
    );
  });
});
