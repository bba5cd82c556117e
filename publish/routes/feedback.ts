// POST /api/v1/feedback: stores a message about the service and returns a receipt. Answered by the shim itself (a
// dynamic route): documented here so the OpenAPI document covers it.
import { FEEDBACK_PER_DAY, feedbackBody, feedbackReceiptSchema, noParams } from "../../schemas/index.ts";
import { type DynamicRoute, NOT_CACHED } from "../route-spec.ts";

export const feedbackRoute: DynamicRoute = {
  name: "feedback",
  method: "POST",
  path: "/api/v1/feedback",
  kind: "dynamic",
  summary: "Send feedback about the data or the API",
  description: `Stores a message and returns its id and when it was received (202). kind is bug (the API or site misbehaves), data (a wrong or missing value), feature (a wish) or other; the message has at most 4,000 characters. Optionally name the project (owner/repo or slug) and a contact (an e-mail address or handle, at most 200 characters) for a reply: the contact is kept for the operators only, never shown or logged. The feedback is written to disk before the answer. A caller may send ${FEEDBACK_PER_DAY} a day (per API key, or per client address without one); one more is 429 rate_limit_exceeded.`,
  tag: "Feedback",
  query: noParams,
  cache: NOT_CACHED,
  body: feedbackBody,
  bodyOptional: false,
  bodyExample: {
    kind: "data",
    message: "acme/ragkit is a vector database, not a RAG framework.",
    project: "acme/ragkit",
  },
  response: feedbackReceiptSchema,
  successStatus: 202,
  examples: {},
};
