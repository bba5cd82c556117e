// The list envelope as bytes: {"data":[…records…],"meta":{…}} assembled from pre-serialised record bytes,
// so neither publish nor the shim re-serialises records. Both use this one function, which is what keeps a
// canonical page and a live response for the same query byte-identical apart from meta.timestamp.

const HEAD = Buffer.from('{"data":[', "utf8");

export type QueryEcho = Record<string, string | number | boolean | null>;

export interface ListMeta {
  timestamp: string;
  count: number;
  total: number;
  next_offset: number | null;
  query: QueryEcho;
}

/** `parts` are record bytes already joined by commas (see recordParts in slice-index.ts). */
export function listEnvelopeBytes(parts: readonly Buffer[], meta: ListMeta): Buffer {
  const tail = `],"meta":{"timestamp":${JSON.stringify(meta.timestamp)},"count":${meta.count},"total":${meta.total},"next_offset":${meta.next_offset},"query":${JSON.stringify(meta.query)}}}`;
  return Buffer.concat([HEAD, ...parts, Buffer.from(tail, "utf8")]);
}

/** Where the next page starts, or null when this page reaches the end of the matching items. */
export function nextOffset(offset: number, count: number, total: number): number | null {
  return count > 0 && offset + count < total ? offset + count : null;
}

/** ISO 8601 with an explicit UTC offset ("+00:00"), as the spec words meta.timestamp. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}
