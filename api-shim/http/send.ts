// Writes 200 and 304 responses of prepared JSON pages straight to the socket, for the route handler and its fast
// path alike. A page is prepared once per URL and release (PreparedReply): its chunks (views into a records file),
// one header object per encoding whose only changing fields (X-RateLimit-*) are rewritten per response, its
// compressed prefixes (send-encoded.ts), and its tail for the current millisecond's timestamp. So a response costs
// no JSON work, no Date formatting, no header object and no copy of the page; measured, each of those cost more than
// the rest of what the shim does per request. Release files: send-file.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CORS_HEADERS } from "../../publish/cors.ts";
import { type Body, bodyTail } from "../../publish/envelope.ts";
import { decimal, rateLimitHeaders } from "../caller.ts";
import type { QuotaHit } from "../quota/quota.ts";
import {
  chooseEncoding,
  encodedTail,
  encodePrefix,
  LIVE_ENCODINGS,
  type LiveEncoding,
  MIN_COMPRESSED_BYTES,
} from "./send-encoded.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

/** Whether the request's If-None-Match names `etag` (or is "*"); weak comparison, as RFC 9110 asks for it. */
export function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/** One encoding of a page: its ETag, the bytes before the tail, and the headers of its 200. */
interface Variant {
  encoding: LiveEncoding | undefined;
  etag: string;
  chunks: readonly Buffer[];
  /** Bytes of `chunks`. */
  chunkBytes: number;
  /** The fixed headers of a 200 in the order sent, X-RateLimit-* first (rewritten per response). */
  headers: Record<string, string | number>;
  /** The same fixed headers, after X-RateLimit-*, as the lines of a response head (see writeBody). */
  block: string;
  /** The one header Node is given (it adds Date and the connection's own headers). */
  sized: { "content-length": number };
  close: ((tail: Buffer) => Buffer) | undefined;
  /** The last response's timestamp and the tail made for it (a timestamp lasts a millisecond). */
  stamp: string;
  tail: Buffer;
  /** The chunks and the tail as one buffer for the timestamp, on a page of at most JOINED_MAX_BYTES (else undefined). */
  joined: Buffer | undefined;
}

/**
 * A page up to this size is sent as one buffer, the chunks and tail joined once per timestamp (every request of that
 * millisecond shares it): one write is measured 13% faster than a corked write per chunk on a 19-KB page. Larger
 * pages are written chunk by chunk, rather than copied every millisecond.
 */
const JOINED_MAX_BYTES = 64 * 1024;

export interface PreparedReplyOptions {
  /** Called with the bytes of each compressed copy made (a route's cache counts them against its bound). */
  onEncoded?: ((bytes: number) => void) | undefined;
  /**
   * A release file served as it is: its bytes and ETag in each encoding (identity under undefined, and either none or
   * every one of LIVE_ENCODINGS: the precompressed copies publish made), never compressed live; answers say
   * Accept-Ranges, as send-file.ts does for the same file.
   */
  copies?: ReadonlyMap<LiveEncoding | undefined, FileCopy> | undefined;
}

/** One encoding of a release file: its bytes and ETag (its sha256, as send-file.ts gives it). */
export interface FileCopy {
  bytes: Buffer;
  etag: string;
}

/** A page ready to be sent many times: identity, and Brotli and gzip once a client asks for them. */
export class PreparedReply {
  readonly body: Body;
  readonly cacheControl: string;
  /** Whether the answer depends on Accept-Encoding (pages of MIN_COMPRESSED_BYTES or more). */
  readonly negotiated: boolean;
  private readonly onEncoded: ((bytes: number) => void) | undefined;
  private readonly copies: ReadonlyMap<LiveEncoding | undefined, FileCopy> | undefined;
  private readonly variants = new Map<LiveEncoding | undefined, Variant>();

  constructor(body: Body, cacheControl: string, options: PreparedReplyOptions = {}) {
    this.body = body;
    this.cacheControl = cacheControl;
    this.copies = options.copies;
    this.negotiated = this.copies ? this.copies.size > 1 : body.chunkBytes >= MIN_COMPRESSED_BYTES;
    this.onEncoded = options.onEncoded;
  }

  /** Makes the variant's tail (and joined page) for a response stamped `timestamp`. */
  stamp(variant: Variant, timestamp: string): void {
    const tail = Buffer.from(bodyTail(this.body, timestamp), "utf8");
    variant.tail = variant.close ? variant.close(tail) : tail;
    variant.stamp = timestamp;
    const bytes = variant.chunkBytes + variant.tail.length;
    if (bytes > JOINED_MAX_BYTES) return;
    // a document served as it is (a badge, a page, a file) is one buffer already: sent as it is, never copied
    const [only] = variant.chunks;
    if (variant.tail.length === 0 && variant.chunks.length === 1 && only) {
      variant.joined = only;
      return;
    }
    // counted once against the route's cache, the first time: later ones replace it, about the same size
    if (variant.joined === undefined) this.onEncoded?.(bytes);
    variant.joined = Buffer.concat([...variant.chunks, variant.tail], bytes);
  }

  /** The variant for a request's Accept-Encoding, made on first use. */
  variant(acceptEncoding: string | undefined): Variant {
    const encoding = this.negotiated ? acceptedEncoding(acceptEncoding) : undefined;
    return this.variants.get(encoding) ?? this.makeVariant(encoding);
  }

  private makeVariant(encoding: LiveEncoding | undefined): Variant {
    const { body } = this;
    let chunks: readonly Buffer[] = body.chunks;
    let etag = body.etag;
    let close: Variant["close"];
    const copy = this.copies?.get(encoding);
    if (copy) {
      chunks = [copy.bytes];
      etag = copy.etag;
    } else if (encoding) {
      const prefix = encodePrefix(body.chunks, encoding);
      this.onEncoded?.(prefix.bytes.length);
      chunks = [prefix.bytes];
      // one ETag per encoding, as RFC 9110 §8.8.3 asks of distinct representations
      etag = `${body.etag.slice(0, -1)}-${encoding}"`;
      close = (tail) => encodedTail(prefix, tail);
    }
    const headers: Record<string, string | number> = {
      "x-ratelimit-limit": 0,
      "x-ratelimit-remaining": 0,
      "x-ratelimit-reset": "",
      // the fast path's responses never pass through the server's own CORS headers (http-server.ts)
      ...CORS_HEADERS,
      etag,
      "cache-control": this.cacheControl,
    };
    if (this.copies) headers["accept-ranges"] = "bytes";
    const vary = varyOf(this.cacheControl, this.negotiated);
    if (vary) headers.vary = vary;
    // a page drawn as it is (a badge, a page for people) has its own type; every other answer is JSON
    headers["content-type"] = body.raw?.contentType ?? JSON_TYPE;
    if (encoding) headers["content-encoding"] = encoding;
    let block = "";
    for (const name in headers)
      if (!name.startsWith("x-ratelimit-")) block += `${name}: ${headers[name]}\r\n`;
    headers["content-length"] = 0;
    const variant: Variant = {
      encoding,
      etag,
      chunks,
      chunkBytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
      headers,
      block,
      sized: { "content-length": 0 },
      close,
      stamp: "",
      tail: Buffer.alloc(0),
      joined: undefined,
    };
    this.variants.set(encoding, variant);
    return variant;
  }
}

/**
 * An answer counted against its caller carries that caller's quota: a cache (the browser's) keeps it per key; and
 * one whose encoding follows Accept-Encoding is kept per encoding.
 */
function varyOf(cacheControl: string, negotiated: boolean): string | undefined {
  const perCaller = cacheControl.startsWith("private");
  if (perCaller && negotiated) return "Authorization, Accept-Encoding";
  if (perCaller) return "Authorization";
  return negotiated ? "Accept-Encoding" : undefined;
}

/** Accept-Encoding headers seen, with the encoding each chooses: the same few values come again and again. */
const accepted = new Map<string, LiveEncoding | undefined>();
const MAX_ACCEPT_HEADERS = 256;

function acceptedEncoding(header: string | undefined): LiveEncoding | undefined {
  if (header === undefined) return undefined;
  let known = accepted.get(header);
  if (known === undefined && !accepted.has(header)) {
    if (accepted.size >= MAX_ACCEPT_HEADERS) accepted.clear();
    known = chooseEncoding(header, LIVE_ENCODINGS);
    accepted.set(header, known);
  }
  return known;
}

// X-RateLimit-Reset is the same text all day: taken from rateLimitHeaders once per reset time.
let resetMs = Number.NaN;
let resetText = "";

export function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedReply,
  timestamp: string,
): void {
  reply.hijack();
  writeBody(request.raw, reply.raw, request.quota, prepared, timestamp);
}

/** Writes a prepared page (or 304) on the raw response: the shim's route handler and its fast path share it. */
export function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  quota: QuotaHit | null,
  prepared: PreparedReply,
  timestamp: string,
  /** The fast path: nothing set a header on `res` before (see writeOwnHead). */
  ownHead = false,
): void {
  const variant = prepared.variant(req.headers["accept-encoding"]);
  if (notModified(req.headers["if-none-match"], variant.etag)) {
    writeNotModified(res, quota, variant);
    return;
  }
  if (variant.stamp !== timestamp) prepared.stamp(variant, timestamp);
  const length = variant.chunkBytes + variant.tail.length;
  if (quota) {
    const reset = quota.resetAt.getTime();
    if (reset !== resetMs) {
      resetText = rateLimitHeaders(quota)["x-ratelimit-reset"] as string;
      resetMs = reset;
    }
  }
  if (ownHead) writeOwnHead(res, variant, quota, length);
  else {
    // through Fastify (and its inject): headers set before (CORS, http-server.ts) are merged with these by Node
    const headers = quota ? variant.headers : withoutQuota(variant.headers);
    if (quota) {
      headers["x-ratelimit-limit"] = quota.limit;
      headers["x-ratelimit-remaining"] = decimal(quota.remaining);
      headers["x-ratelimit-reset"] = resetText;
    }
    headers["content-length"] = length;
    res.writeHead(200, headers);
  }
  headFirst(req, res);
  // For HEAD, Node writes the headers only.
  if (variant.joined) {
    res.end(variant.joined);
    return;
  }
  // Corked, everything leaves in one writev.
  res.cork();
  for (const chunk of variant.chunks) res.write(chunk);
  res.end(variant.tail);
  res.uncork();
}

/**
 * Node checks and copies every header it is given, which cost more than everything else per response on the fast
 * path (measured: 3 µs of 16): it is given Content-Length alone, and writes Date and the connection's headers as it
 * decides them; the page's own headers, made once and holding nothing a request sent, join the head it made before a
 * byte of it is written (`_header`, the head OutgoingMessage keeps until its first write, in Node 20 to 24). Only for
 * a response on which nothing set a header before.
 */
function writeOwnHead(res: ServerResponse, variant: Variant, quota: QuotaHit | null, length: number): void {
  let lines = variant.block;
  if (quota) {
    lines = `x-ratelimit-limit: ${quota.limit}\r\nx-ratelimit-remaining: ${decimal(quota.remaining)}\r\nx-ratelimit-reset: ${resetText}\r\n${lines}`;
  }
  variant.sized["content-length"] = length;
  res.writeHead(200, variant.sized);
  const head = res as ServerResponse & { _header: string | null };
  if (typeof head._header !== "string" || !head._header.endsWith("\r\n\r\n"))
    throw new Error(
      "Node's ServerResponse no longer keeps its head in _header: api-shim/send.ts must change.",
    );
  head._header = `${head._header.slice(0, -2)}${lines}\r\n`;
}

function writeNotModified(res: ServerResponse, quota: QuotaHit | null, variant: Variant): void {
  const headers: Record<string, string | number> = quota ? rateLimitHeaders(quota) : {};
  for (const name of [...Object.keys(CORS_HEADERS), "etag", "cache-control", "accept-ranges", "vary"]) {
    const value = variant.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  res.writeHead(304, headers);
  res.end();
}

function withoutQuota(headers: Record<string, string | number>): Record<string, string | number> {
  const {
    "x-ratelimit-limit": _limit,
    "x-ratelimit-remaining": _remaining,
    "x-ratelimit-reset": _reset,
    ...rest
  } = headers;
  return rest;
}

/**
 * Node puts a response's head in front of what is already queued for it when its first body chunk is a Buffer; on a
 * pipelined request with `Expect: 100-continue` that is Node's own 100 Continue, which then lands inside the 200
 * (found by test/fuzz.test.ts). Sending the head alone first keeps the order; only such requests pay for it.
 */
export function headFirst(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect !== undefined) res.flushHeaders();
}
