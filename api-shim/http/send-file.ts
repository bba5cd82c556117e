// Serves a release file as it is, the way HTTP readers of Parquet and Arrow (DuckDB's httpfs and duckdb-wasm, fsspec,
// Arrow) read it: a HEAD for the size, then ranged GETs for the footer and the columns a query needs. One range per
// request (206 with Content-Range), If-Range against the ETag, 416 in the envelope for a range outside the file; a
// request for several ranges gets the whole file (RFC 9110 lets a server ignore Range). Large files are streamed
// from the release's storage, never held whole in memory.
import { pipeline } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ByteRange } from "../../core/storage.ts";
import { rateLimitHeaders } from "../caller.ts";
import { ApiError } from "../errors.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { headFirst, notModified } from "./send.ts";

/** What a request's Range (and If-Range) asks of a file of `size` bytes. */
export type RangeAsked =
  | { kind: "whole" }
  | { kind: "part"; range: ByteRange }
  | { kind: "refused"; why: string };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * Reads Range for one file. Another unit, or several ranges, is answered with the whole file; If-Range naming
 * another ETag (or a date: files carry no Last-Modified) too. A byte range outside the file, or one that is not a
 * range (`bytes=9-3`, `bytes=-`), is refused.
 */
export function rangeAsked(
  header: string | undefined,
  ifRange: string | undefined,
  etag: string,
  size: number,
): RangeAsked {
  if (header === undefined || !header.trimStart().toLowerCase().startsWith("bytes="))
    return { kind: "whole" };
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: "whole" };
  const spec = header.trim().replace(/\s+/g, "");
  if (spec.includes(",")) return { kind: "whole" };
  const match = SINGLE.exec(spec.toLowerCase());
  const [, first = "", last = ""] = match ?? [];
  const syntax = `Range must be bytes=FIRST-LAST, bytes=FIRST- or bytes=-SUFFIX with byte positions inside the file (${size} bytes)`;
  if (!match || (first === "" && last === "")) return { kind: "refused", why: `${syntax}; got ${header}.` };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0)
      return { kind: "refused", why: `${syntax}; a suffix of 0 bytes is empty.` };
    return { kind: "part", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start)
    return { kind: "refused", why: `${syntax}; ${header} ends before it starts.` };
  if (start >= size) {
    return {
      kind: "refused",
      why: `${header} starts past the end of this file (${size} bytes); ask for a range inside it.`,
    };
  }
  return { kind: "part", range: { start, end } };
}

export interface ServedFile {
  path: string;
  bytes: number;
  sha256: string;
  contentType: string;
  /** A precompressed copy (publish/compression.ts) chosen by Accept-Encoding. */
  contentEncoding?: string | undefined;
  /** The file has encoded copies: the answer depends on Accept-Encoding. */
  negotiated?: boolean;
}

/**
 * The best of `available` encodings (in the publisher's order: br, then gzip) that Accept-Encoding accepts (q above 0,
 * or `*`), or undefined for identity.
 */
export function chooseEncoding<E extends string>(
  header: string | undefined,
  available: readonly E[],
): E | undefined {
  if (header === undefined || available.length === 0) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim() === "x-gzip" ? "gzip" : name.trim(), q === undefined ? 1 : Number(q));
  }
  const star = accepted.get("*");
  return available.find((e) => (accepted.get(e) ?? star ?? 0) > 0);
}

/** Answers GET or HEAD of a release file: 200, 206, 304, or throws ApiError (416, 503) for the error handler. */
export async function sendReleaseFile(
  request: FastifyRequest,
  reply: FastifyReply,
  release: ReleaseReader,
  file: ServedFile,
  cacheControl: string,
): Promise<void> {
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string | number> = request.quota ? rateLimitHeaders(request.quota) : {};
  headers.etag = etag;
  headers["cache-control"] = cacheControl;
  headers["accept-ranges"] = "bytes";
  if (file.negotiated) headers.vary = "Accept-Encoding";
  if (notModified(request.headers["if-none-match"], etag)) return writeHead(reply, 304, headers);
  headers["content-type"] = file.contentType;
  if (file.contentEncoding) headers["content-encoding"] = file.contentEncoding;
  // HEAD: the headers of a GET of the whole file (Range applies to GET only)
  const asked =
    request.method === "HEAD"
      ? ({ kind: "whole" } as const)
      : rangeAsked(request.headers.range, headerText(request.headers["if-range"]), etag, file.bytes);
  if (asked.kind === "refused") {
    throw new ApiError("range_not_satisfiable", asked.why, { "content-range": `bytes */${file.bytes}` });
  }
  const range = asked.kind === "part" ? asked.range : undefined;
  headers["content-length"] = range ? range.end - range.start + 1 : file.bytes;
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${file.bytes}`;
  const status = range ? 206 : 200;
  if (request.method === "HEAD" || file.bytes === 0) return writeHead(reply, status, headers);
  // opened before the head is written, so a storage that cannot give the file is still a 503 in the envelope
  const body = await release.stream(file.path, range);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(status, headers);
  headFirst(request.raw, res);
  // a small file is in memory: written at once; a large one streamed
  if (Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  pipeline(body, res, () => {
    // a failure mid-body cannot become an envelope any more: the connection is cut (pipeline destroys both),
    // so the client sees a short body rather than a wrong one
  });
}

function writeHead(reply: FastifyReply, status: number, headers: Record<string, string | number>): void {
  reply.hijack();
  reply.raw.writeHead(status, headers);
  reply.raw.end();
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}
