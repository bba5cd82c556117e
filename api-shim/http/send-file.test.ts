// Release files served the way HTTP readers of Parquet read them: HEAD, one range (206), If-Range, 416 in the
// envelope, several ranges answered whole — from memory (a small file), streamed from a folder, and streamed from a
// real bucket (s3rver).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import type { Storage } from "../../core/storage.ts";
import { CURRENT_KEY, MANIFEST_FILE, readPointer, releaseKey } from "../../publish/layout.ts";
import { ROUTES } from "../../publish/routes/index.ts";
import { type S3TestServer, startS3Server } from "../../test/s3-server.ts";
import { buildApp } from "../app.ts";
import { openEmbeddedQuotaStore } from "../quota/quota.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, movableClock, sharedPublishedFixture } from "../testing.ts";
import { rangeAsked } from "./send-file.ts";

describe("rangeAsked", () => {
  const etag = '"abc"';
  it("reads one byte range: first-last, first-, a suffix; the last position clamped to the file", () => {
    expect(rangeAsked("bytes=0-99", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 0, end: 99 },
    });
    expect(rangeAsked("bytes=990-", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 990, end: 999 },
    });
    expect(rangeAsked("bytes=-8", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 992, end: 999 },
    });
    expect(rangeAsked("bytes=-5000", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 0, end: 999 },
    });
    expect(rangeAsked("bytes=500-4000", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 500, end: 999 },
    });
    expect(rangeAsked("Bytes= 7-7", undefined, etag, 1000)).toEqual({
      kind: "part",
      range: { start: 7, end: 7 },
    });
  });

  it("answers the whole file for no Range, another unit, several ranges or an If-Range naming another ETag", () => {
    expect(rangeAsked(undefined, undefined, etag, 1000)).toEqual({ kind: "whole" });
    expect(rangeAsked("items=0-5", undefined, etag, 1000)).toEqual({ kind: "whole" });
    expect(rangeAsked("bytes=0-5,10-20", undefined, etag, 1000)).toEqual({ kind: "whole" });
    expect(rangeAsked("bytes=0-5", '"old"', etag, 1000)).toEqual({ kind: "whole" });
    expect(rangeAsked("bytes=0-5", "Wed, 21 Oct 2026 07:28:00 GMT", etag, 1000)).toEqual({ kind: "whole" });
    expect(rangeAsked("bytes=0-5", etag, etag, 1000)).toEqual({ kind: "part", range: { start: 0, end: 5 } });
  });

  it("refuses a range outside the file or one that is not a range, saying what a range is", () => {
    expect(rangeAsked("bytes=1000-", undefined, etag, 1000)).toEqual({
      kind: "refused",
      why: "bytes=1000- starts past the end of this file (1000 bytes); ask for a range inside it.",
    });
    const syntax =
      "Range must be bytes=FIRST-LAST, bytes=FIRST- or bytes=-SUFFIX with byte positions inside the file (1000 bytes)";
    expect(rangeAsked("bytes=9-3", undefined, etag, 1000)).toEqual({
      kind: "refused",
      why: `${syntax}; bytes=9-3 ends before it starts.`,
    });
    expect(rangeAsked("bytes=-0", undefined, etag, 1000)).toEqual({
      kind: "refused",
      why: `${syntax}; a suffix of 0 bytes is empty.`,
    });
    expect(rangeAsked("bytes=abc", undefined, etag, 1000)).toEqual({
      kind: "refused",
      why: `${syntax}; got bytes=abc.`,
    });
  });
});

const PARQUET = "/datasets/quality.parquet";

let fixture: Fixture;
let s3: S3TestServer;
let bucket: Storage;
let parquet: Buffer;

beforeAll(async () => {
  fixture = await sharedPublishedFixture();
  const pointer = await readPointer(fixture.storage);
  parquet = await readFile(
    path.join(fixture.root, "releases", pointer?.release_id ?? "", "datasets", "quality.parquet"),
  );
  // the same release in a real bucket, as much of it as a shim serving the datasets reads: the pointer, the manifest
  // and the datasets (its other 1,292 objects, at 5 ms of s3rver's CPU a PUT, would be read by nobody)
  s3 = await startS3Server();
  await s3.bucket("releases");
  bucket = s3.storage("releases", "api");
  const id = pointer?.release_id ?? "";
  const keys = [CURRENT_KEY, releaseKey(id, MANIFEST_FILE)];
  for (const { key } of await fixture.storage.listObjects(releaseKey(id, "datasets/"))) keys.push(key);
  for (const key of keys) await bucket.put(key, (await fixture.storage.get(key)) as Buffer);
}, 60_000);
afterAll(async () => {
  await s3?.stop();
  await fixture?.cleanup();
});

/** A shim over `storage`, streaming files past `streamAboveBytes` (1: every file but an empty one). */
async function shimOver(storage: Storage, streamAboveBytes: number) {
  const release = await openReleaseReader({ storage, checkEveryMs: 0, streamAboveBytes });
  const quotas = await openEmbeddedQuotaStore();
  const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 1000 } } });
  const app = buildApp({ config, release, quotas, clock: movableClock("2026-03-02T10:00:00Z") });
  return {
    app,
    close: async () => {
      await app.close();
      release.close();
      await quotas.close();
    },
  };
}

const sources = [
  { name: "from memory (a small file)", storage: () => fixture.storage, streamAboveBytes: 1 << 30 },
  { name: "streamed from a folder", storage: () => fixture.storage, streamAboveBytes: 1 },
  { name: "streamed from a bucket", storage: () => bucket, streamAboveBytes: 1 },
];

describe.each(sources)("a dataset file $name", ({ storage, streamAboveBytes }) => {
  let shim: Awaited<ReturnType<typeof shimOver>>;
  const sha = () => createHash("sha256").update(parquet).digest("hex");
  beforeAll(async () => {
    shim = await shimOver(storage(), streamAboveBytes);
  });
  afterAll(() => shim.close());
  const get = (headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    shim.app.inject({ method, url: PARQUET, headers });

  it("answers a GET whole, with Accept-Ranges, and HEAD with the same headers and no body", async () => {
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(parquet)).toBe(true);
    expect(whole.headers).toMatchObject({
      "accept-ranges": "bytes",
      "content-length": String(parquet.length),
      "content-type": "application/vnd.apache.parquet",
      etag: `"${sha()}"`,
      "cache-control": "public, max-age=3600",
      "x-ratelimit-limit": "1000",
    });
    const head = await get({}, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    const { date: _d, "x-ratelimit-remaining": _r, ...headHeaders } = head.headers;
    const { date: _d2, "x-ratelimit-remaining": _r2, ...getHeaders } = whole.headers;
    expect(headHeaders).toEqual(getHeaders);
  });

  it("answers one range 206 with Content-Range: the footer, as a Parquet reader asks for it", async () => {
    const footer = await get({ range: "bytes=-8" });
    expect(footer.statusCode).toBe(206);
    expect(footer.headers["content-range"]).toBe(
      `bytes ${parquet.length - 8}-${parquet.length - 1}/${parquet.length}`,
    );
    expect(footer.headers["content-length"]).toBe("8");
    expect(footer.rawPayload.equals(parquet.subarray(parquet.length - 8))).toBe(true);
    expect(footer.rawPayload.subarray(4).toString()).toBe("PAR1");
    const middle = await get({ range: "bytes=4-103", "if-range": `"${sha()}"` });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers["content-range"]).toBe(`bytes 4-103/${parquet.length}`);
    expect(middle.rawPayload.equals(parquet.subarray(4, 104))).toBe(true);
  });

  it("answers the whole file when If-Range names another ETag or several ranges are asked", async () => {
    const asked: Record<string, string>[] = [
      { range: "bytes=0-3", "if-range": '"stale"' },
      { range: "bytes=0-3,8-12" },
    ];
    for (const headers of asked) {
      const res = await get(headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-range"]).toBeUndefined();
      expect(res.rawPayload.equals(parquet)).toBe(true);
    }
  });

  it("refuses a range past the end with 416 in the envelope, with Content-Range and the quota headers", async () => {
    const res = await get({ range: `bytes=${parquet.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers["content-range"]).toBe(`bytes */${parquet.length}`);
    expect(res.headers["x-ratelimit-limit"]).toBe("1000");
    expect(res.json()).toEqual({
      detail: {
        error: {
          code: "range_not_satisfiable",
          message: `bytes=${parquet.length}- starts past the end of this file (${parquet.length} bytes); ask for a range inside it.`,
          request_id: expect.any(String),
        },
      },
    });
  });

  it("answers 304 to If-None-Match before looking at Range", async () => {
    const res = await get({ "if-none-match": `"${sha()}"`, range: "bytes=0-3" });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe("");
    expect(res.headers["accept-ranges"]).toBe("bytes");
  });
});

describe("every file route", () => {
  it("answers HEAD and a range on each file served as it is (documents and datasets)", async () => {
    const shim = await shimOver(fixture.storage, 1);
    try {
      const files = ROUTES.filter((r) => r.kind === "file" && !r.envelope);
      expect(files.map((r) => r.path)).toEqual([
        "/datasets/{file}",
        "/",
        "/docs",
        "/api/v1/openapi.json",
        "/.well-known/ai-plugin.json",
        "/api/v1/feed.atom",
        "/logo.svg",
        "/favicon.ico",
        "/d/{domain}",
      ]);
      for (const route of files) {
        const url = route.path.replace("{file}", "quality.arrow").replace("{domain}", "agents");
        const whole = await shim.app.inject({ method: "GET", url });
        const head = await shim.app.inject({ method: "HEAD", url });
        const part = await shim.app.inject({ method: "GET", url, headers: { range: "bytes=1-10" } });
        expect([whole.statusCode, head.statusCode, part.statusCode], url).toEqual([200, 200, 206]);
        expect(head.headers["content-length"], url).toBe(String(whole.rawPayload.length));
        expect(part.rawPayload.equals(whole.rawPayload.subarray(1, 11)), url).toBe(true);
      }
    } finally {
      await shim.close();
    }
  });
});
