// The list envelope as bytes: {"data":[…records…],"meta":{…}} assembled from pre-serialised record bytes,
// so neither publish nor the shim re-serialises records. Both use these functions, which is what keeps a
// canonical page and a live response for the same query byte-identical apart from meta.timestamp.

const HEAD = Buffer.from('{"data":[', "utf8");

export type QueryEcho = Record<string, string | number | boolean | null>;

export interface ListCounts {
  timestamp: string;
  count: number;
  total: number;
  next_offset: number | null;
}

/**
 * The envelope as chunks to write in order: the head, `parts` (record bytes already joined by commas, see
 * recordParts in slice-index.ts; usually views into a records file) and the meta. `queryJson` is
 * JSON.stringify(meta.query), which callers may keep across requests.
 */
export function listEnvelopeChunks(parts: readonly Buffer[], counts: ListCounts, queryJson: string): Buffer[] {
  const tail = `],"meta":{"timestamp":${JSON.stringify(counts.timestamp)},"count":${counts.count},"total":${counts.total},"next_offset":${counts.next_offset},"query":${queryJson}}}`;
  return [HEAD, ...parts, Buffer.from(tail, "utf8")];
}

export function listEnvelopeBytes(parts: readonly Buffer[], counts: ListCounts, query: QueryEcho): Buffer {
  return Buffer.concat(listEnvelopeChunks(parts, counts, JSON.stringify(query)));
}

/** Where the next page starts, or null when this page reaches the end of the matching items. */
export function nextOffset(offset: number, count: number, total: number): number | null {
  return count > 0 && offset + count < total ? offset + count : null;
}

/** ISO 8601 with an explicit UTC offset ("+00:00"), as the spec words meta.timestamp. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}
