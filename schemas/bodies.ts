// JSON request bodies of the POST endpoints. Objects are strict (an unknown field is invalid_body) and
// their values are never echoed in errors: they may hold an e-mail address or SQL text.
import { z } from "zod";
import { withRule } from "./param-fields.ts";

export const MAX_EMAIL_LENGTH = 254;
export const MAX_COMPANY_LENGTH = 200;
export const MAX_SQL_LENGTH = 10_000;
export const MAX_FEEDBACK_LENGTH = 4_000;

const email = () =>
  withRule(
    z.email().max(MAX_EMAIL_LENGTH),
    "email",
    `a valid e-mail address of at most ${MAX_EMAIL_LENGTH} characters`,
  );
const text = (max: number) =>
  withRule(z.string().trim().min(1).max(max), "text", `a non-empty text of at most ${max} characters`);

/** POST /api/v1/keys. The whole body is optional: parseBody treats a missing body as {}. */
export const createKeyBody = z
  .strictObject({
    email: email()
      .optional()
      .describe("Contact address; when given, the key gets the highest (e-mail) quota. Never shown back"),
    company: text(MAX_COMPANY_LENGTH).optional().describe("Company or project name"),
  })
  .describe("Body of POST /api/v1/keys; optional, an empty request is valid");

/** POST /api/v1/query: one read-only SELECT or WITH statement (checked by the sandbox, not here). */
export const queryBody = z
  .strictObject({
    sql: text(MAX_SQL_LENGTH).describe("One read-only SELECT or WITH statement"),
  })
  .describe("Body of POST /api/v1/query");

/** POST /api/v1/feedback. The spec shows no fields; this is our minimal form. */
export const feedbackBody = z
  .strictObject({
    message: text(MAX_FEEDBACK_LENGTH).describe("The feedback"),
    email: email().optional().describe("Address for a reply; never shown back"),
    endpoint: text(200).optional().describe("Endpoint or page the feedback is about"),
  })
  .describe("Body of POST /api/v1/feedback");

export type CreateKeyBody = z.output<typeof createKeyBody>;
export type QueryBody = z.output<typeof queryBody>;
export type FeedbackBody = z.output<typeof feedbackBody>;
