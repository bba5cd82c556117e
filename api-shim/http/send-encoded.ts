// Compressed JSON pages without compressing each response. A prepared page is the same bytes up to meta.timestamp
// for every response; only its tail (timestamp and the meta after it, ~150 bytes) changes. So the part before the
// tail is compressed once per page, ending in a flush (byte-aligned, stream left open), and each response appends
// its tail as an uncompressed block and closes the stream: a Brotli uncompressed meta-block and the last empty one
// (RFC 7932 §9.2), or a deflate stored block and the gzip trailer (RFC 1951 §3.2.4, RFC 1952: the CRC-32 continued
// from the prefix's). Both are standard streams any decoder reads (tested with zlib, curl and Chromium); the tail
// is a few bytes bigger than compressed, the prefix — nearly all the page — is compressed as well as usual.
import { brotliCompressSync, constants, crc32, gzipSync } from "node:zlib";

export type LiveEncoding = "br" | "gzip";
/** The server's order of preference (Brotli is smaller): it breaks ties between encodings a client weighs equally. */
export const LIVE_ENCODINGS: readonly LiveEncoding[] = ["br", "gzip"];

/**
 * Brotli quality and gzip level for pages compressed as they are first asked for: each distinct page pays this
 * once (measured on a 22 KB page: Brotli 4 takes 0.7 ms for 3,160 bytes, 11 takes 110 ms for 2,536; gzip 6 takes
 * 0.6 ms for 3,191). Documents, compressed once at publish, use the highest levels (publish/compression.ts).
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
/** Pages smaller than this are sent as they are: compressing them saves less than the work costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * The encoding of `available` (in the server's order of preference: br, then gzip) that Accept-Encoding weighs
 * highest, or undefined for identity. Each coding's weight is its own q, else that of `*`, else 0; q=0 refuses it
 * (RFC 9110 §12.5.3). Equal weights go to the server's preference, so `gzip;q=1.0, br;q=0.5` is gzip and
 * `gzip, br` is Brotli. Identity, never refused here, wins only when the header names it above every coding.
 */
export function chooseEncoding<E extends string>(
  header: string | undefined,
  available: readonly E[],
): E | undefined {
  if (header === undefined || available.length === 0) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const coding = name.trim() === "x-gzip" ? "gzip" : name.trim();
    // a q that is not one (q=abc, q=2) leaves the coding at the default weight, 1
    if (coding !== "") weights.set(coding, q === undefined ? 1 : Math.min(1, Number(q)));
  }
  const star = weights.get("*");
  let best: E | undefined;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? star ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  const identity = weights.get("identity");
  return identity !== undefined && identity > bestWeight ? undefined : best;
}

/** A page's constant part compressed, with what its responses' tails need to close the stream. */
export interface EncodedPrefix {
  encoding: LiveEncoding;
  bytes: Buffer;
  /** gzip: the CRC-32 of the uncompressed prefix and its length. */
  crc: number;
  length: number;
}

const GZIP_TRAILER_BYTES = 8;
/** The largest deflate stored block, and the largest Brotli meta-block of 4 length nibbles. */
const STORED_BLOCK_MAX = 65_535;
const BROTLI_BLOCK_MAX = 65_536;
const BROTLI_LAST_EMPTY = 0b11; // ISLAST = 1, ISLASTEMPTY = 1

export function encodePrefix(chunks: readonly Buffer[], encoding: LiveEncoding): EncodedPrefix {
  const prefix = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  if (encoding === "br") {
    const bytes = brotliCompressSync(prefix, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: prefix.length,
      },
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
    });
    return { encoding, bytes, crc: 0, length: prefix.length };
  }
  const bytes = gzipSync(prefix, { level: GZIP_LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
  return { encoding, bytes, crc: crc32(prefix), length: prefix.length };
}

/** The bytes that follow the prefix for a response whose tail is `tail`: the tail stored, and the stream's end. */
export function encodedTail(prefix: EncodedPrefix, tail: Buffer): Buffer {
  return prefix.encoding === "br" ? brotliTail(tail) : gzipTail(prefix, tail);
}

function brotliTail(tail: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(tail.length / BROTLI_BLOCK_MAX));
  const out = Buffer.allocUnsafe(tail.length + 3 * blocks + 1);
  let at = 0;
  for (let start = 0; start < tail.length; start += BROTLI_BLOCK_MAX) {
    const piece = tail.subarray(start, start + BROTLI_BLOCK_MAX);
    // ISLAST 0, MNIBBLES 0 (4 nibbles), MLEN-1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte boundary
    out.writeUIntLE(((piece.length - 1) << 3) | (1 << 19), at, 3);
    at += 3 + piece.copy(out, at + 3);
  }
  out[at++] = BROTLI_LAST_EMPTY;
  return out.subarray(0, at);
}

function gzipTail(prefix: EncodedPrefix, tail: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(tail.length / STORED_BLOCK_MAX));
  const out = Buffer.allocUnsafe(tail.length + 5 * blocks + GZIP_TRAILER_BYTES);
  let at = 0;
  let start = 0;
  do {
    const piece = tail.subarray(start, start + STORED_BLOCK_MAX);
    start += piece.length;
    // BFINAL on the last block, BTYPE 00 (stored); LEN and its one's complement, little-endian
    out[at] = start >= tail.length ? 1 : 0;
    out.writeUInt16LE(piece.length, at + 1);
    out.writeUInt16LE(~piece.length & 0xffff, at + 3);
    at += 5 + piece.copy(out, at + 5);
  } while (start < tail.length);
  // an empty tail (a page drawn as it is: no timestamp) leaves the CRC as it is; Node 20's crc32 answers 0 for an
  // empty buffer once it has been sliced, which made a corrupt stream
  out.writeUInt32LE(tail.length === 0 ? prefix.crc : crc32(tail, prefix.crc), at);
  out.writeUInt32LE((prefix.length + tail.length) >>> 0, at + 4);
  return out.subarray(0, at + GZIP_TRAILER_BYTES);
}
