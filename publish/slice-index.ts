// The compact index beside a domain's records file: byte offsets, scores and per-subcategory ordinal
// lists, so any limit/offset/min_score/tier/subcategory query is two binary searches plus byte slicing.
// Written by publish, read by the shim; one file format, encoded and decoded only here.
import { AppError } from "../core/errors.ts";

const MAGIC = Buffer.from("PISIDX1\n", "latin1");

export interface SliceIndex {
  /** Number of records. */
  count: number;
  /** Start of record i in the records file; record i ends one byte (its "," or "]") before offsets[i + 1]. */
  offsets: Uint32Array;
  /** quality_score of record i; non-increasing, as records are in canonical order. */
  scores: Uint8Array;
  /** Ordinals (ascending) of the records of each subcategory, keyed by name. */
  subcategories: Map<string, Uint32Array>;
}

interface Header {
  count: number;
  subcategories: { name: string; count: number }[];
}

/**
 * Layout: magic, uint32 header length, header JSON, zero padding to a multiple of 4, then uint32 offsets
 * (count + 1), uint32 ordinals of each subcategory in header order, uint8 scores. All little-endian.
 */
export function encodeSliceIndex(index: SliceIndex): Buffer {
  const names = [...index.subcategories.keys()].sort();
  const header: Header = {
    count: index.count,
    subcategories: names.map((name) => ({ name, count: index.subcategories.get(name)?.length ?? 0 })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const start = align4(MAGIC.length + 4 + headerBytes.length);
  const words = index.offsets.length + header.subcategories.reduce((n, s) => n + s.count, 0);
  const out = Buffer.alloc(start + words * 4 + index.scores.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(out, MAGIC.length + 4);
  let at = start;
  const writeWords = (values: Uint32Array) => {
    for (const v of values) {
      out.writeUInt32LE(v, at);
      at += 4;
    }
  };
  writeWords(index.offsets);
  for (const name of names) writeWords(index.subcategories.get(name) ?? new Uint32Array());
  out.set(index.scores, at);
  return out;
}

export function decodeSliceIndex(bytes: Buffer, source = "slice index"): SliceIndex {
  const fail = (why: string) =>
    new AppError(`Cannot read ${source}: ${why}.`, {
      hint: "The release is damaged; publish a new one with `projintel publish`.",
      stage: "release",
    });
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw fail("not a slice index (bad magic)");
  }
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(
    bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength),
  ) as Header;
  const start = align4(MAGIC.length + 4 + headerLength);
  const words = header.count + 1 + header.subcategories.reduce((n, s) => n + s.count, 0);
  if (bytes.length !== start + words * 4 + header.count) throw fail("unexpected length");
  // Typed-array views need 4-byte alignment and little-endian order; copy only when they are not given.
  const table = readWords(bytes, start, words);
  let at = 0;
  const take = (n: number) => {
    at += n;
    return table.subarray(at - n, at);
  };
  const offsets = take(header.count + 1);
  const subcategories = new Map<string, Uint32Array>();
  for (const s of header.subcategories) subcategories.set(s.name, take(s.count));
  const scoresAt = start + words * 4;
  const scores = new Uint8Array(bytes.buffer, bytes.byteOffset + scoresAt, header.count);
  return { count: header.count, offsets, scores, subcategories };
}

function readWords(bytes: Buffer, start: number, words: number): Uint32Array {
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (littleEndian && (bytes.byteOffset + start) % 4 === 0) {
    return new Uint32Array(bytes.buffer, bytes.byteOffset + start, words);
  }
  const out = new Uint32Array(words);
  for (let i = 0; i < words; i++) out[i] = bytes.readUInt32LE(start + i * 4);
  return out;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

export interface SliceQuery {
  subcategory?: string | undefined;
  /** Inclusive score bounds (a tier's range narrowed by min_score). */
  minScore: number;
  maxScore: number;
  limit: number;
  offset: number;
}

export interface Slice {
  /** Records matching the filters, over all pages. */
  total: number;
  /** Ordinals of the page's records, in canonical order. */
  ordinals: number[];
}

/** The page of ordinals answering `query`: filters are score ranges, so each is a run in canonical order. */
export function selectSlice(index: SliceIndex, query: SliceQuery): Slice {
  const list = query.subcategory === undefined ? undefined : index.subcategories.get(query.subcategory);
  if (query.subcategory !== undefined && list === undefined) return { total: 0, ordinals: [] };
  const length = list ? list.length : index.count;
  const scoreAt = list
    ? (p: number) => index.scores[list[p] as number] as number
    : (p: number) => index.scores[p] as number;
  // Scores are non-increasing along the list: the matching run starts at the first score <= maxScore and
  // ends before the first score < minScore.
  const first = lowerBound(length, (p) => scoreAt(p) <= query.maxScore);
  const end = lowerBound(length, (p) => scoreAt(p) < query.minScore);
  const total = Math.max(0, end - first);
  const from = first + query.offset;
  const to = Math.min(end, from + query.limit);
  const ordinals: number[] = [];
  for (let p = from; p < to; p++) ordinals.push(list ? (list[p] as number) : p);
  return { total, ordinals };
}

/** First position in [0, length) where the monotone predicate turns true; `length` when it never does. */
function lowerBound(length: number, test: (position: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The bytes of the given records joined by commas, as slices of the records file: consecutive ordinals
 * share one slice (the file already holds the commas), so an unfiltered page is a single zero-copy view.
 */
export function recordParts(records: Buffer, index: SliceIndex, ordinals: readonly number[]): Buffer[] {
  const parts: Buffer[] = [];
  const { offsets } = index;
  let i = 0;
  while (i < ordinals.length) {
    const runStart = ordinals[i] as number;
    let runEnd = runStart;
    while (i + 1 < ordinals.length && ordinals[i + 1] === runEnd + 1) {
      runEnd++;
      i++;
    }
    // Ordinals ascend, so a run that is not the page's last is followed by another record: the bytes up to
    // that record's start end with this run's ",". The page's last run stops one byte earlier.
    const last = i === ordinals.length - 1;
    parts.push(
      records.subarray(offsets[runStart] as number, (offsets[runEnd + 1] as number) - (last ? 1 : 0)),
    );
    i++;
  }
  return parts;
}
