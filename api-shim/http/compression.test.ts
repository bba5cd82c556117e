// Precompressed documents: publish stores a Brotli and a gzip copy of each text document beside it (same bytes every
// time, Content-Encoding kept by a real bucket), and the shim answers by Accept-Encoding with Vary and one ETag per
// encoding, ranges and HEAD included.
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodedCopies } from "../../publish/compression.ts";
import { readManifest, readPointer } from "../../publish/layout.ts";
import { startS3Server } from "../../test/s3-server.ts";
import { type Fixture, movableClock, sharedPublishedFixture, type TestApp, testApp } from "../testing.ts";
import { chooseEncoding } from "./send-encoded.ts";

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("chooseEncoding", () => {
  it("takes the encoding Accept-Encoding weighs highest, Brotli first among equals", () => {
    const both = ["br", "gzip"] as const;
    expect(chooseEncoding("gzip, deflate, br, zstd", both)).toBe("br");
    expect(chooseEncoding("gzip", both)).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5", both)).toBe("gzip");
    // the highest q wins; equal ones go to the server's order
    expect(chooseEncoding("gzip;q=1.0, br;q=0.5", both)).toBe("gzip");
    expect(chooseEncoding("gzip;q=0.9, br;q=0.9", both)).toBe("br");
    expect(chooseEncoding("gzip;q=0.5, identity", both)).toBeUndefined();
    expect(chooseEncoding("x-gzip", both)).toBe("gzip");
    expect(chooseEncoding("*", both)).toBe("br");
    expect(chooseEncoding("*;q=0, identity", both)).toBeUndefined();
    expect(chooseEncoding("identity", both)).toBeUndefined();
    expect(chooseEncoding(undefined, both)).toBeUndefined();
    expect(chooseEncoding("br", [])).toBeUndefined();
  });
});

describe("encodedCopies", () => {
  it("makes the same Brotli and gzip bytes every time, which decode to the file", async () => {
    const file = {
      path: "api/v1/openapi.json",
      body: Buffer.from('{"a":1}\n'.repeat(500)),
      contentType: "application/json",
    };
    const [br, gz] = await encodedCopies(file);
    expect([br?.path, br?.contentEncoding, gz?.path, gz?.contentEncoding]).toEqual([
      "api/v1/openapi.json.br",
      "br",
      "api/v1/openapi.json.gz",
      "gzip",
    ]);
    expect(brotliDecompressSync(br?.body as Buffer).equals(file.body)).toBe(true);
    expect(gunzipSync(gz?.body as Buffer).equals(file.body)).toBe(true);
    const again = await encodedCopies(file);
    expect(again.map((c) => sha(c.body as Buffer))).toEqual([br, gz].map((c) => sha(c?.body as Buffer)));
    expect(await encodedCopies({ ...file, contentType: "application/vnd.apache.parquet" })).toEqual([]);
  });
});

describe("the shim", () => {
  let fixture: Fixture;
  let shim: TestApp;
  beforeAll(async () => {
    fixture = await sharedPublishedFixture();
    shim = await testApp(fixture, {
      clock: movableClock("2026-03-02T10:00:00Z"),
      config: { quota: { anonymous: 1000 } },
    });
  });
  afterAll(async () => {
    await shim.close();
    await fixture.cleanup();
  });
  const get = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    shim.app.inject({ method, url, headers });

  it("stores a Brotli and a gzip copy of every text document in the release, with their Content-Encoding", async () => {
    const pointer = await readPointer(fixture.storage);
    const manifest = await readManifest(fixture.storage, pointer?.release_id as string);
    const encoded = manifest?.files
      .filter((f) => f.content_encoding !== undefined)
      .map((f) => [f.path, f.content_encoding]);
    // the domain pages (d/<domain>.html, one per domain) have theirs too
    const domainPages = encoded?.filter(([p]) => p?.startsWith("d/")) ?? [];
    expect(domainPages).toHaveLength(60);
    expect(domainPages.slice(0, 2)).toEqual([
      ["d/3d-ai.html.br", "br"],
      ["d/3d-ai.html.gz", "gzip"],
    ]);
    expect(encoded?.filter(([p]) => !p?.startsWith("d/"))).toEqual([
      ["api/v1/feed.atom.br", "br"],
      ["api/v1/feed.atom.gz", "gzip"],
      ["api/v1/openapi.json.br", "br"],
      ["api/v1/openapi.json.gz", "gzip"],
      ["docs/index.html.br", "br"],
      ["docs/index.html.gz", "gzip"],
      ["index.html.br", "br"],
      ["index.html.gz", "gzip"],
      ["logo.svg.br", "br"],
      ["logo.svg.gz", "gzip"],
      ["well-known/ai-plugin.json.br", "br"],
      ["well-known/ai-plugin.json.gz", "gzip"],
    ]);
  });

  it("answers by Accept-Encoding with Vary and an ETag per encoding, each decoding to the same document", async () => {
    const identity = await get("/api/v1/openapi.json");
    const br = await get("/api/v1/openapi.json", { "accept-encoding": "gzip, deflate, br" });
    const gzip = await get("/api/v1/openapi.json", { "accept-encoding": "gzip" });
    for (const res of [identity, br, gzip]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.headers.etag).toBe(`"${sha(res.rawPayload)}"`);
      expect(res.headers["content-length"]).toBe(String(res.rawPayload.length));
    }
    expect([
      identity.headers["content-encoding"],
      br.headers["content-encoding"],
      gzip.headers["content-encoding"],
    ]).toEqual([undefined, "br", "gzip"]);
    expect(new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    expect(brotliDecompressSync(br.rawPayload).equals(identity.rawPayload)).toBe(true);
    expect(gunzipSync(gzip.rawPayload).equals(identity.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(identity.rawPayload.length / 4);
    // 304 for the encoding whose ETag is sent; ranges of the encoded bytes; HEAD with the same headers
    const again = await get("/api/v1/openapi.json", {
      "accept-encoding": "br",
      "if-none-match": String(br.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    const part = await get("/api/v1/openapi.json", { "accept-encoding": "br", range: "bytes=0-9" });
    expect([part.statusCode, part.headers["content-encoding"]]).toEqual([206, "br"]);
    expect(part.rawPayload.equals(br.rawPayload.subarray(0, 10))).toBe(true);
    const head = await get("/api/v1/openapi.json", { "accept-encoding": "br" }, "HEAD");
    expect([head.headers["content-encoding"], head.headers["content-length"], head.headers.etag]).toEqual([
      "br",
      br.headers["content-length"],
      br.headers.etag,
    ]);
  });

  it("leaves datasets as they are, without Vary", async () => {
    const res = await get("/datasets/quality.parquet", { "accept-encoding": "gzip, br" });
    expect([res.statusCode, res.headers["content-encoding"], res.headers.vary]).toEqual([
      200,
      undefined,
      undefined,
    ]);
  });
});

describe("a bucket", () => {
  it("keeps the Content-Encoding of an encoded copy, so a CDN serves it as it is", async () => {
    const s3 = await startS3Server();
    try {
      await s3.bucket("enc");
      const storage = s3.storage("enc", "p");
      const [br] = await encodedCopies({
        path: "docs/index.html",
        body: Buffer.from("<p>hi</p>".repeat(100)),
        contentType: "text/html; charset=utf-8",
      });
      await storage.put("releases/r/docs/index.html.br", br?.body as Buffer, {
        contentType: "text/html; charset=utf-8",
        contentEncoding: "br",
      });
      const client = new S3Client({ ...s3.client, forcePathStyle: true });
      const head = await client.send(
        new HeadObjectCommand({ Bucket: "enc", Key: "p/releases/r/docs/index.html.br" }),
      );
      expect([head.ContentEncoding, head.ContentType]).toEqual(["br", "text/html; charset=utf-8"]);
      client.destroy();
    } finally {
      await s3.stop();
    }
  });
});
