// JSON request bodies of the POST endpoints. Objects are strict (an unknown field is invalid_body) and
// their values are never echoed in errors: they may hold an e-mail address or SQL text.
import { z } from "zod";
import { MAX_SLUG_LENGTH, PROJECT_REF_PATTERN } from "./fields.ts";
import { withRule } from "./param-fields.ts";

export const MAX_EMAIL_LENGTH = 254;
export const MAX_COMPANY_LENGTH = 200;
export const MAX_SQL_LENGTH = 10_000;
export const MAX_FEEDBACK_LENGTH = 4_000;
/** Positional parameters a query may take (? or $1 …): the limit POST /api/v1/query documents. */
export const MAX_QUERY_PARAMS = 20;
/** Longest text value of one query parameter. */
export const MAX_QUERY_PARAM_LENGTH = 1_000;
/** Longest contact detail of a feedback (an e-mail address or a short handle). */
export const MAX_CONTACT_LENGTH = 200;
/** What feedback is about; `projintel feedback list` groups by it. */
export const FEEDBACK_KINDS = ["bug", "data", "feature", "other"] as const;
/** Feedback a caller (an API key, or a client address without one) may send a day. */
export const FEEDBACK_PER_DAY = 20;

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

/** A query parameter: a scalar (text, number, boolean or null); lists and objects are not bound. */
const queryParam = z.union([
  z.string().max(MAX_QUERY_PARAM_LENGTH),
  z.number().refine(Number.isFinite),
  z.boolean(),
  z.null(),
]);

/** POST /api/v1/query: one read-only SELECT or WITH statement (checked by the sandbox, not here). */
export const queryBody = z
  .strictObject({
    sql: text(MAX_SQL_LENGTH).describe("One read-only SELECT or WITH statement"),
    params: withRule(
      z.array(queryParam).max(MAX_QUERY_PARAMS),
      "list",
      `a list of at most ${MAX_QUERY_PARAMS} scalars (text of at most ${MAX_QUERY_PARAM_LENGTH} characters, numbers, booleans or null)`,
    )
      .optional()
      .describe("Values of the query's positional parameters (? or $1, $2 …), in order"),
  })
  .describe("Body of POST /api/v1/query");

/** POST /api/v1/feedback: what it is about, the message, optionally the project and how to reach the sender. */
export const feedbackBody = z
  .strictObject({
    kind: withRule(z.enum(FEEDBACK_KINDS), "enum", `one of: ${FEEDBACK_KINDS.join(", ")}`).describe(
      "What the feedback is about: bug (the API or site misbehaves), data (a wrong or missing value), feature (a wish), other",
    ),
    message: text(MAX_FEEDBACK_LENGTH).describe("The feedback"),
    project: withRule(
      z.string().max(MAX_SLUG_LENGTH).regex(PROJECT_REF_PATTERN),
      "ref",
      `a project as owner/repo or its slug, at most ${MAX_SLUG_LENGTH} characters`,
    )
      .optional()
      .describe("The project it is about, as owner/repo or its slug"),
    contact: text(MAX_CONTACT_LENGTH)
      .optional()
      .describe(
        "An e-mail address or handle for a reply; kept for the operators only, never shown or logged",
      ),
  })
  .describe("Body of POST /api/v1/feedback");

export type CreateKeyBody = z.output<typeof createKeyBody>;
export type QueryBody = z.output<typeof queryBody>;
export type FeedbackBody = z.output<typeof feedbackBody>;
