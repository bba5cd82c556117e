// The response envelope every JSON success response uses: {data, meta}. Factories build the envelope
// schema for a list payload (adds meta.total and meta.next_offset) or for a single-item payload.
import { z } from "zod";

/** Value types that appear in an echoed query: parameter values after defaults and coercion. */
const queryValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

/** Default shape of meta.query: the effective parameters, defaults filled in. */
export const effectiveQuerySchema = z
  .record(z.string(), queryValue)
  .describe("Echo of the effective query parameters, defaults filled in");

export const timestampSchema = z.iso
  .datetime({ offset: true })
  .describe("Time of the response, ISO 8601 date-time with UTC offset");

/** meta of a single-item response. Exported unrefined so endpoints can `.extend()` it. */
export const itemMetaSchema = z.strictObject({
  timestamp: timestampSchema,
  count: z.literal(1).describe("Number of items returned: always 1"),
  query: effectiveQuerySchema,
});

/** meta of a list response: also the number of matching items and where the next page starts. */
export const listMetaSchema = z.strictObject({
  timestamp: timestampSchema,
  count: z.int().min(0).describe("Number of items returned in data"),
  query: effectiveQuerySchema,
  total: z.int().min(0).describe("Number of items matching the query, over all pages"),
  next_offset: z
    .int()
    .min(1)
    .nullable()
    .describe("offset of the next page; null on the last page or when the endpoint does not page"),
});

/** Envelope of a list endpoint: data is an array of `item`; meta.count equals data.length. */
export function listEnvelope<T extends z.ZodType, Q extends z.ZodType = typeof effectiveQuerySchema>(
  item: T,
  query: Q = effectiveQuerySchema as z.ZodType as Q,
) {
  return z
    .strictObject({
      data: z.array(item).describe("Result items"),
      meta: listMetaSchema.extend({ query }),
    })
    .superRefine(({ data, meta }, ctx) => {
      if (meta.count !== data.length) {
        ctx.addIssue({
          code: "custom",
          path: ["meta", "count"],
          message: "meta.count must equal data.length",
        });
      }
      if (meta.total < meta.count) {
        ctx.addIssue({ code: "custom", path: ["meta", "total"], message: "meta.total is below meta.count" });
      }
    });
}

/** Envelope of a single-item endpoint: data is one object; meta.count is 1. */
export function itemEnvelope<T extends z.ZodType, Q extends z.ZodType = typeof effectiveQuerySchema>(
  data: T,
  query: Q = effectiveQuerySchema as z.ZodType as Q,
) {
  return z.strictObject({ data, meta: itemMetaSchema.extend({ query }) });
}

export type ListMeta = z.infer<typeof listMetaSchema>;
export type ItemMeta = z.infer<typeof itemMetaSchema>;
