// The list envelope as bytes: {"data":[…records…],"meta":{…}} assembled from pre-serialised record bytes,
// so neither publish nor the shim re-serialises records. Both use these functions, which is what keeps a
// canonical page and a live response for the same query byte-identical apart from meta.timestamp.

const HEAD = Buffer.from('{"data":[', "utf8");
const TAIL_START = '],"meta":{"timestamp":"';

export interface ListCounts {
  count: number;
  total: number;
  next_offset: number | null;
}

/**
 * A list response waiting only for its timestamp: the chunks up to the end of the records (the head, then
 * record bytes already joined by commas — views into a records file, see recordParts in slice-index.ts)
 * and the meta after the timestamp. The shim keeps these per query; only the tail is made per request.
 */
export interface ListBody {
  chunks: Buffer[];
  chunkBytes: number;
  afterTimestamp: string;
  afterTimestampBytes: number;
}

/** `queryJson` is JSON.stringify(meta.query): the effective parameters. */
export function prepareListBody(parts: readonly Buffer[], counts: ListCounts, queryJson: string): ListBody {
  const chunks = [HEAD, ...parts];
  let chunkBytes = 0;
  for (const chunk of chunks) chunkBytes += chunk.length;
  const afterTimestamp = `","count":${counts.count},"total":${counts.total},"next_offset":${counts.next_offset},"query":${queryJson}}}`;
  return { chunks, chunkBytes, afterTimestamp, afterTimestampBytes: Buffer.byteLength(afterTimestamp) };
}

/** The same body with its chunks copied into one buffer: worth it for a page kept and sent many times. */
export function compactListBody(body: ListBody): ListBody {
  return body.chunks.length <= 2 ? body : { ...body, chunks: [Buffer.concat(body.chunks, body.chunkBytes)] };
}

/** The rest of the body after `chunks`; `timestamp` is formatTimestamp output (ASCII, nothing to escape). */
export function listTail(body: ListBody, timestamp: string): string {
  return TAIL_START + timestamp + body.afterTimestamp;
}

export function listByteLength(body: ListBody, timestamp: string): number {
  return body.chunkBytes + TAIL_START.length + timestamp.length + body.afterTimestampBytes;
}

export function listBytes(body: ListBody, timestamp: string): Buffer {
  return Buffer.concat([...body.chunks, Buffer.from(listTail(body, timestamp), "utf8")]);
}

/** Where the next page starts, or null when this page reaches the end of the matching items. */
export function nextOffset(offset: number, count: number, total: number): number | null {
  return count > 0 && offset + count < total ? offset + count : null;
}

/** ISO 8601 with an explicit UTC offset ("+00:00"), as the spec words meta.timestamp. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}
