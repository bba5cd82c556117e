// POST /api/v1/keys: creates an API key, returned once. Answered by the shim itself (a dynamic route): documented here
// so the OpenAPI document covers it.
import { apiKeyRecordSchema, createKeyBody, noParams } from "../../schemas/index.ts";
import { type DynamicRoute, NOT_CACHED } from "../route-spec.ts";

export const keysRoute: DynamicRoute = {
  name: "keys",
  method: "POST",
  path: "/api/v1/keys",
  kind: "dynamic",
  summary: "Create an API key (no authentication needed)",
  description:
    "Creates a key for the Authorization: Bearer header. Without an e-mail address the key's quota is 1,000 requests a day; with one, 10,000. The whole body is optional: an empty request is valid. The key is shown once, in this response: only its prefix is kept in a readable form. A malformed, unknown or revoked key gets 401 invalid_api_key (it is never served under the anonymous quota). Keys created per client address are capped a day (429 rate_limit_exceeded). The body must be JSON (415 otherwise) of at most 4 KiB (413). Every endpoint also works without a key, within the anonymous quota of 100 requests a day.",
  tag: "Keys",
  query: noParams,
  cache: NOT_CACHED,
  body: createKeyBody,
  bodyOptional: true,
  bodyExample: { email: "you@example.com", company: "Example Labs" },
  response: apiKeyRecordSchema,
  examples: {},
};
