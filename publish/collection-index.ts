// The compact index beside a collection partition's records file: byte offsets, per-filter ordinal lists, a rank
// column, lookup keys and search text — so any query the route table allows is binary searches, list
// intersections and byte slicing, never a database. Written by publish, read by the shim; encoded only here.
import { AppError } from "../core/errors.ts";

const MAGIC = Buffer.from("PISIDX2\n", "latin1");

export interface CollectionIndex {
  /** Number of records. */
  count: number;
  /** Start of record i in the records file; record i ends one byte (its "," or "]") before offsets[i + 1]. */
  offsets: Uint32Array;
  /** Filter name → value → ordinals (ascending) of the records having it. */
  filters: Map<string, Map<string, Uint32Array>>;
  /** The rank of record i, monotone in `rankOrder` along the records; absent when the collection has none. */
  rank?: Int32Array;
  rankOrder?: "desc" | "asc";
  /** Lookup key → ordinal (the first record of a key). */
  keys?: Map<string, number>;
  /** The search text of record i (lower case). */
  search?: string[];
}

interface Header {
  count: number;
  filters: { name: string; values: { value: string; count: number }[] }[];
  rank: "desc" | "asc" | null;
  keysBytes: number;
  searchBytes: number;
}

/**
 * Layout: magic, uint32 header length, header JSON, zero padding to a multiple of 4, then uint32 offsets
 * (count + 1), the uint32 ordinal lists of each filter value in header order, int32 ranks (count, when ranked),
 * the keys as UTF-8 "key\tordinal\n" lines, the search texts as UTF-8 lines. All little-endian.
 */
export function encodeCollectionIndex(index: CollectionIndex): Buffer {
  const filters = [...index.filters].map(([name, values]) => ({
    name,
    values: [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  }));
  const keysText = index.keys ? [...index.keys].map(([k, o]) => `${k}\t${o}\n`).join("") : "";
  const searchText = index.search ? index.search.map((s) => `${s}\n`).join("") : "";
  const keys = Buffer.from(keysText, "utf8");
  const search = Buffer.from(searchText, "utf8");
  const header: Header = {
    count: index.count,
    filters: filters.map((f) => ({
      name: f.name,
      values: f.values.map(([value, list]) => ({ value, count: list.length })),
    })),
    rank: index.rank ? (index.rankOrder ?? "desc") : null,
    keysBytes: keys.length,
    searchBytes: search.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const start = align4(MAGIC.length + 4 + headerBytes.length);
  const lists = filters.flatMap((f) => f.values.map(([, list]) => list));
  const words =
    index.offsets.length + lists.reduce((n, l) => n + l.length, 0) + (index.rank ? index.count : 0);
  const out = Buffer.alloc(start + words * 4 + keys.length + search.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(out, MAGIC.length + 4);
  let at = start;
  const put = (values: ArrayLike<number>, signed: boolean) => {
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (signed) out.writeInt32LE(v, at);
      else out.writeUInt32LE(v, at);
      at += 4;
    }
  };
  put(index.offsets, false);
  for (const list of lists) put(list, false);
  if (index.rank) put(index.rank, true);
  keys.copy(out, at);
  search.copy(out, at + keys.length);
  return out;
}

export function decodeCollectionIndex(bytes: Buffer, source = "collection index"): CollectionIndex {
  const fail = (why: string) =>
    new AppError(`Cannot read ${source}: ${why}.`, {
      hint: "The release is damaged; publish a new one with `projintel publish`.",
      stage: "release",
    });
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw fail("not a collection index (bad magic)");
  }
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(
    bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength),
  ) as Header;
  const start = align4(MAGIC.length + 4 + headerLength);
  const listWords = header.filters.reduce((n, f) => n + f.values.reduce((m, v) => m + v.count, 0), 0);
  const words = header.count + 1 + listWords + (header.rank ? header.count : 0);
  const textAt = start + words * 4;
  if (bytes.length !== textAt + header.keysBytes + header.searchBytes) throw fail("unexpected length");
  const table = readWords(bytes, start, words);
  let at = 0;
  const take = (n: number) => {
    at += n;
    return table.subarray(at - n, at);
  };
  const offsets = take(header.count + 1);
  const filters = new Map<string, Map<string, Uint32Array>>();
  for (const f of header.filters) {
    filters.set(f.name, new Map(f.values.map((v) => [v.value, take(v.count)])));
  }
  const index: CollectionIndex = { count: header.count, offsets, filters };
  if (header.rank) {
    const ranks = take(header.count);
    index.rank = new Int32Array(ranks.buffer, ranks.byteOffset, ranks.length);
    index.rankOrder = header.rank;
  }
  if (header.keysBytes > 0) {
    const keys = new Map<string, number>();
    for (const line of bytes.toString("utf8", textAt, textAt + header.keysBytes).split("\n")) {
      const tab = line.lastIndexOf("\t");
      if (tab > 0) keys.set(line.slice(0, tab), Number(line.slice(tab + 1)));
    }
    index.keys = keys;
  }
  if (header.searchBytes > 0) {
    const text = bytes.toString(
      "utf8",
      textAt + header.keysBytes,
      textAt + header.keysBytes + header.searchBytes,
    );
    index.search = text.slice(0, -1).split("\n");
  }
  return index;
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
