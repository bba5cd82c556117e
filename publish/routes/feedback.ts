// POST /api/v1/feedback: stores a message about the service and returns a receipt. Answered by the shim itself (a
// dynamic route): documented here so the OpenAPI document covers it.
import { feedbackBody, feedbackReceiptSchema, noParams } from "../../schemas/index.ts";
import { type DynamicRoute, NOT_CACHED } from "../route-spec.ts";

export const feedbackRoute: DynamicRoute = {
  name: "feedback",
  method: "POST",
  path: "/api/v1/feedback",
  kind: "dynamic",
  summary: "Send feedback about the data or the API",
  description:
    "Stores a message (a wrong classification, a missing project, a bug) and returns its id and when it was received. Optionally name the endpoint or page it is about and an address for a reply; neither the message nor the address is ever shown back.",
  tag: "Feedback",
  query: noParams,
  cache: NOT_CACHED,
  body: feedbackBody,
  bodyOptional: false,
  bodyExample: {
    message: "acme/ragkit is a vector database, not a RAG framework.",
    endpoint: "/api/v1/projects/acme--ragkit",
  },
  response: feedbackReceiptSchema,
  examples: {},
};
