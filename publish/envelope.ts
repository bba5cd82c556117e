// The envelope as bytes: {"data":[…records…],"meta":{…}} (or {"data":{…},…} for one item) assembled from
// pre-serialised record bytes, so neither publish nor the shim re-serialises records. Both use these functions,
// which is what keeps a canonical page and a live response for the same query byte-identical apart from
// meta.timestamp.
import { createHash } from "node:crypto";

const LIST_HEAD = Buffer.from('{"data":[', "utf8");
const ITEM_HEAD = Buffer.from('{"data":', "utf8");
const LIST_BEFORE_TIMESTAMP = '],"meta":{"timestamp":"';
const ITEM_BEFORE_TIMESTAMP = ',"meta":{"timestamp":"';

export interface ListCounts {
  count: number;
  total: number;
  next_offset: number | null;
}

/**
 * A response waiting only for its timestamp: the chunks up to the end of the data (the head, then record bytes —
 * views into a records file) and the meta around the timestamp. The shim keeps these per query; only the tail is
 * made per request. `etag` identifies the data (everything but the timestamp).
 */
export interface Body {
  chunks: Buffer[];
  chunkBytes: number;
  beforeTimestamp: string;
  afterTimestamp: string;
  afterTimestampBytes: number;
  etag: string;
  /** A document served as it is (a badge, a page: prepareRawBody): its type, and no envelope or timestamp. */
  raw?: { contentType: string };
}

/** A list body; `queryJson` is JSON.stringify(meta.query), `extraMeta` more meta fields as JSON (`"missing":[…]`). */
export function prepareListBody(
  parts: readonly Buffer[],
  counts: ListCounts,
  queryJson: string,
  extraMeta = "",
): Body {
  const extra = extraMeta === "" ? "" : `,${extraMeta}`;
  const after = `","count":${counts.count},"total":${counts.total},"next_offset":${counts.next_offset},"query":${queryJson}${extra}}}`;
  return makeBody([LIST_HEAD, ...parts], LIST_BEFORE_TIMESTAMP, after);
}

/** A single-item body around one record's bytes. */
export function prepareItemBody(record: Buffer, queryJson: string): Body {
  return makeBody([ITEM_HEAD, record], ITEM_BEFORE_TIMESTAMP, `","count":1,"query":${queryJson}}}`);
}

function makeBody(chunks: Buffer[], beforeTimestamp: string, afterTimestamp: string): Body {
  let chunkBytes = 0;
  const hash = createHash("sha256");
  for (const chunk of chunks) {
    chunkBytes += chunk.length;
    hash.update(chunk);
  }
  hash.update(afterTimestamp);
  return {
    chunks,
    chunkBytes,
    beforeTimestamp,
    afterTimestamp,
    afterTimestampBytes: Buffer.byteLength(afterTimestamp),
    etag: `"${hash.digest("base64url").slice(0, 27)}"`,
  };
}

/** A document served as it is, drawn once per release and URL: its bytes are the whole body. */
export function prepareRawBody(bytes: Buffer, contentType: string): Body {
  return { ...makeBody([bytes], "", ""), raw: { contentType } };
}

/** The same body with its chunks copied into one buffer: worth it for a page kept and sent many times. */
export function compactBody(body: Body): Body {
  return body.chunks.length <= 2 ? body : { ...body, chunks: [Buffer.concat(body.chunks, body.chunkBytes)] };
}

/** The rest of the body after `chunks`; `timestamp` is formatTimestamp output (ASCII, nothing to escape). */
export function bodyTail(body: Body, timestamp: string): string {
  if (body.raw) return "";
  return body.beforeTimestamp + timestamp + body.afterTimestamp;
}

export function bodyByteLength(body: Body, timestamp: string): number {
  if (body.raw) return body.chunkBytes;
  return body.chunkBytes + body.beforeTimestamp.length + timestamp.length + body.afterTimestampBytes;
}

export function bodyBytes(body: Body, timestamp: string): Buffer {
  return Buffer.concat([...body.chunks, Buffer.from(bodyTail(body, timestamp), "utf8")]);
}

/** Where the next page starts, or null when this page reaches the end of the matching items. */
export function nextOffset(offset: number, count: number, total: number): number | null {
  return count > 0 && offset + count < total ? offset + count : null;
}

/** ISO 8601 with an explicit UTC offset ("+00:00"), as the spec words meta.timestamp. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}
