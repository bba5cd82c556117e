// Responses of the endpoints the shim answers itself (beyond the API key record of records.ts): the result of
// POST /api/v1/query — columns, rows as arrays, meta.truncated — and the receipt of POST /api/v1/feedback.
import { z } from "zod";
import { itemMetaSchema } from "./envelope.ts";
import { dateTimeSchema } from "./fields.ts";

/** A value of a result row as JSON: numbers, text (dates and timestamps as ISO text), booleans, null, lists, structs. */
const cellSchema = z.unknown().describe("A value, as JSON; dates and timestamps as ISO 8601 text");

export const queryResultSchema = z
  .strictObject({
    run_date: z.iso.date().describe("The night the public database holds"),
    columns: z
      .array(
        z.strictObject({
          name: z.string().describe("Column name, as the query named it"),
          type: z.string().min(1).describe("DuckDB type of the column, e.g. VARCHAR, BIGINT, DATE"),
        }),
      )
      .describe("The result's columns, in order"),
    rows: z
      .array(z.array(cellSchema).describe("One row: one value per column, in column order"))
      .describe("The rows, in the query's order, up to the row and byte caps"),
  })
  .describe("Query result");

/** meta of a query response: count is the rows returned, truncated says a cap cut the result. */
export const queryMetaSchema = itemMetaSchema.extend({
  count: z.int().min(0).describe("Rows returned in data.rows"),
  truncated: z
    .boolean()
    .describe("Whether the row or byte cap cut the result; add LIMIT or aggregate to see all of it"),
  elapsed_ms: z.int().min(0).describe("Time the query took, in milliseconds"),
});

export const feedbackReceiptSchema = z
  .strictObject({
    id: z.string().min(1).describe("Id of the feedback, to quote when following it up"),
    received_at: dateTimeSchema.describe("When the feedback was stored, ISO 8601 with UTC offset"),
    note: z
      .string()
      .optional()
      .describe(
        "Set when the project named is not tracked: the feedback is stored all the same, and says so",
      ),
  })
  .describe("Feedback receipt");

export type QueryResultData = z.infer<typeof queryResultSchema>;
export type FeedbackReceipt = z.infer<typeof feedbackReceiptSchema>;
