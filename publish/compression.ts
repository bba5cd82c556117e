// Precompressed documents: each JSON, HTML, XML or SVG file a route serves as it is gets a Brotli and a gzip copy
// beside it in the release (`<path>.br`, `<path>.gz`), made once at publish with Node's zlib at the highest levels,
// stored with their Content-Encoding (a bucket keeps it, so a CDN can serve them as they are). The shim picks one by
// Accept-Encoding (api-shim/http/send-file.ts). Both encoders give the same bytes for the same input (gzip's header
// carries no time here), so an unchanged document is copied, not uploaded, by the next publish.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { ReleaseFile } from "./release-writer.ts";

/** The encodings a file is stored in besides identity, best first (the shim prefers them in this order). */
export const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type Encoding = (typeof ENCODINGS)[number]["name"];

/** Content types worth compressing: text. Parquet is compressed inside; Arrow and images are left as they are. */
export function isCompressible(contentType: string): boolean {
  return /json|html|xml|svg|text\//.test(contentType);
}

/** The release path of a file's encoded copy. */
export function encodedPath(path: string, encoding: Encoding): string {
  const suffix = ENCODINGS.find((e) => e.name === encoding)?.suffix as string;
  return `${path}${suffix}`;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The Brotli and gzip copies of a text file, served with its content type and their Content-Encoding. Compressed on
 * libuv's threads (Brotli at its highest quality takes 80 ms for a 56-KB page), so a caller compressing several files
 * at once has them made side by side.
 */
export async function encodedCopies(
  file: ReleaseFile & { body: Buffer; contentType: string },
): Promise<ReleaseFile[]> {
  if (!isCompressible(file.contentType)) return [];
  const [br, gzipped] = await Promise.all([
    brotliAsync(file.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length,
      },
    }),
    gzipAsync(file.body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return [
    { path: encodedPath(file.path, "br"), body: br, contentType: file.contentType, contentEncoding: "br" },
    {
      path: encodedPath(file.path, "gzip"),
      body: gzipped,
      contentType: file.contentType,
      contentEncoding: "gzip",
    },
  ];
}
