// Relay-style slicing shared by every connection: first/after/last/before over positions 1..total,
// with GitHub's cursor shapes (search: base64 "cursor:N"; other lists: base64 "cursor:v2:N").
import { GraphQLError } from "graphql";

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface CursorCodec {
  encode(position: number): string;
  decode(cursor: string): number | undefined;
}

function codec(prefix: string): CursorCodec {
  const pattern = new RegExp(`^${prefix}(\\d{1,9})$`);
  return {
    encode: (position) => Buffer.from(`${prefix}${position}`).toString("base64"),
    decode: (cursor) => {
      const match = pattern.exec(Buffer.from(cursor, "base64").toString("utf8"));
      return match ? Number(match[1]) : undefined;
    },
  };
}

export const searchCursor = codec("cursor:");
export const listCursor = codec("cursor:v2:");

export interface PageInfo {
  startCursor: string | null;
  endCursor: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Page {
  /** 1-based positions of the slice, in order. */
  positions: number[];
  pageInfo: PageInfo;
}

/** An error GitHub reports with a `type` beside the message (NOT_FOUND, INVALID_CURSOR_ARGUMENTS…). */
export class TypedGraphQLError extends GraphQLError {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

function decodeOrThrow(cursors: CursorCodec, cursor: string): number {
  const position = cursors.decode(cursor);
  if (position === undefined) {
    throw new TypedGraphQLError(
      "INVALID_CURSOR_ARGUMENTS",
      `\`${cursor}\` does not appear to be a valid cursor.`,
    );
  }
  return position;
}

/**
 * Positions selected by the arguments among `available` items (search caps this at 1,000). Items are only
 * listed when first or last bounds the page (GitHub refuses to list a connection without them), so a
 * totalCount-only connection over 100,000 stars costs nothing.
 */
export function slice(available: number, args: PageArgs, cursors: CursorCodec): Page {
  let low = args.after ? decodeOrThrow(cursors, args.after) + 1 : 1;
  let high = args.before ? decodeOrThrow(cursors, args.before) - 1 : available;
  high = Math.min(high, available);
  low = Math.max(low, 1);
  const bounded = typeof args.first === "number" || typeof args.last === "number";
  if (typeof args.first === "number") high = Math.min(high, low + args.first - 1);
  if (typeof args.last === "number") low = Math.max(low, high - args.last + 1);
  const positions: number[] = [];
  if (bounded) for (let p = low; p <= high; p++) positions.push(p);
  const empty = high < low;
  return {
    positions,
    pageInfo: {
      startCursor: empty ? null : cursors.encode(low),
      endCursor: empty ? null : cursors.encode(high),
      hasNextPage: high < available,
      hasPreviousPage: low > 1,
    },
  };
}
