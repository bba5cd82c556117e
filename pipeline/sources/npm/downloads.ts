// npm download counts: last month's total (/downloads/point/last-month/…) and daily series
// (/downloads/range/<start>:<end>/…), both in bulk for up to 128 unscoped names per request
// (comma-separated); the API refuses scoped names in bulk, so those go one by one.
import type { z } from "zod";
import type { CollectContext } from "../types.ts";
import { type NpmDownloadsRow, pointRows, rangeRows } from "./rows.ts";
import { bulkPointSchema, bulkRangeSchema, pointSchema, rangeSchema } from "./schemas.ts";
import { npmUrls } from "./urls.ts";

/** The API's limit on names per bulk request. */
export const BULK_LIMIT = 128;

/** Unscoped names in bulk groups of at most BULK_LIMIT, then each scoped name alone. */
export function downloadRequests(names: readonly string[]): string[][] {
  const unscoped = names.filter((n) => !n.startsWith("@"));
  const groups: string[][] = [];
  for (let i = 0; i < unscoped.length; i += BULK_LIMIT) groups.push(unscoped.slice(i, i + BULK_LIMIT));
  return [...groups, ...names.filter((n) => n.startsWith("@")).map((n) => [n])];
}

/** The parsed body, or undefined after setting a malformed one aside with its URL and schema issue. */
async function parse<T>(ctx: CollectContext, schema: z.ZodType<T>, body: unknown, url: string) {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  await ctx.quarantine(url, body, parsed.error);
  return undefined;
}

/** One request's names, and whether it asks for last month's total or a daily series. */
export type DownloadsRequest =
  | { kind: "point"; names: string[] }
  | { kind: "range"; names: string[]; start: string; end: string };

/**
 * The downloads of one request's names; unknown packages (404, or null in bulk) are skipped. One name is
 * answered with a single object, several with an object keyed by name (for points and ranges alike).
 */
export async function fetchDownloads(
  ctx: CollectContext,
  request: DownloadsRequest,
): Promise<NpmDownloadsRow[]> {
  const period = request.kind === "point" ? "last-month" : `${request.start}:${request.end}`;
  const url = `${npmUrls(ctx).npmDownloads}/downloads/${request.kind}/${period}/${request.names.join(",")}`;
  const result = await ctx.http.request(url, { source: "npm" });
  const meta = { runDate: ctx.runDate, fetchedAt: ctx.clock.now() };
  if (result.decision === "skip") {
    ctx.count("skipped", request.names.length);
    return [];
  }
  // A single name is answered unkeyed; keying it by name lets both forms be read the same way.
  const single = request.names.length === 1;
  if (request.kind === "point") {
    const body = await parse(
      ctx,
      single ? pointSchema.transform((p) => ({ [p.package]: p })) : bulkPointSchema,
      result.body,
      url,
    );
    return answered(ctx, request.names, body, (point) => pointRows(point, meta));
  }
  const body = await parse(
    ctx,
    single ? rangeSchema.transform((r) => ({ [r.package]: r })) : bulkRangeSchema,
    result.body,
    url,
  );
  return answered(ctx, request.names, body, (range) => rangeRows(range, meta));
}

/** Rows of every name the body answers; a name answered null (unknown package) is counted as skipped. */
function answered<T>(
  ctx: CollectContext,
  names: readonly string[],
  body: Record<string, T | null> | undefined,
  rows: (value: T) => NpmDownloadsRow[],
): NpmDownloadsRow[] {
  if (!body) return [];
  return names.flatMap((name) => {
    const value = body[name];
    if (!value) {
      ctx.count("skipped");
      return [];
    }
    return rows(value);
  });
}

/** Last month's downloads of up to BULK_LIMIT unscoped names, or of one scoped name. */
export const fetchLastMonth = (ctx: CollectContext, names: string[]) =>
  fetchDownloads(ctx, { kind: "point", names });

/** Daily downloads between two dates (YYYY-MM-DD, inclusive), bulk like last month's. */
export const fetchDaily = (ctx: CollectContext, names: string[], start: string, end: string) =>
  fetchDownloads(ctx, { kind: "range", names, start, end });
