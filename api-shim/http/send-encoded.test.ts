// Compressed JSON pages: the prefix compressed once per page and each response's tail appended uncompressed make
// standard Brotli and gzip streams (decoded by zlib and by curl, a decoder nobody here wrote), served over real
// HTTP by the router and then by the fast path with Vary, an ETag per encoding, 304s and the quota counted once.
import { execFile } from "node:child_process";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { buildApp } from "../app.ts";
import { openEmbeddedQuotaStore } from "../quota/quota.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, movableClock, sharedPublishedFixture } from "../testing.ts";
import { encodedTail, encodePrefix, MIN_COMPRESSED_BYTES } from "./send-encoded.ts";

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

describe("encodePrefix and encodedTail", () => {
  it("make streams that decode to prefix and tail, for an empty tail (a page drawn as it is), one block or several", () => {
    const chunks = [Buffer.from('{"data":['), Buffer.from('{"a":1},'.repeat(3000))];
    for (const encoding of ["br", "gzip"] as const) {
      const prefix = encodePrefix(chunks, encoding);
      expect(prefix.bytes.length).toBeLessThan(2000);
      for (const size of [0, 1, 150, 65_535, 65_536, 200_001]) {
        const tail = Buffer.alloc(size, "x");
        const whole = Buffer.concat([prefix.bytes, encodedTail(prefix, tail)]);
        expect(decode[encoding](whole).equals(Buffer.concat([...chunks, tail]))).toBe(true);
      }
    }
  });
});

describe("JSON pages over HTTP", () => {
  let fixture: Fixture;
  let url: string;
  let close: () => Promise<void>;
  let served: () => number;
  beforeAll(async () => {
    fixture = await sharedPublishedFixture();
    const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 1000 } } });
    const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    const quotas = await openEmbeddedQuotaStore();
    const app = buildApp({ config, release, quotas, clock: movableClock("2026-03-02T10:00:00Z") });
    await app.listen({ host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    served = () => app.preparedAnswers.served;
    close = async () => {
      await app.close();
      release.close();
      await quotas.close();
    };
  });
  afterAll(async () => {
    await close();
    await fixture.cleanup();
  });

  /** A response as sent (node:http does not decode bodies). */
  function get(path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        request(`${url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
          .on("error", reject)
          .end();
      },
    );
  }
  const withoutTimestamp = (bytes: Buffer) => {
    const body = JSON.parse(bytes.toString("utf8"));
    expect(body.meta.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    body.meta.timestamp = "";
    return body;
  };

  it("answers a page in Brotli or gzip by Accept-Encoding, from the router and then the fast path", async () => {
    const page = "/api/v1/quality?domain=rag";
    const identity = await get(page);
    expect(identity.body.length).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    const before = served();
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const res = await get(page, { "accept-encoding": accept });
        expect(res.status).toBe(200);
        expect(res.headers["content-encoding"]).toBe(encoding);
        // counted against its caller (private), and chosen by Accept-Encoding
        expect(res.headers.vary).toBe("Authorization, Accept-Encoding");
        expect(res.headers["content-length"]).toBe(String(res.body.length));
        expect(res.headers.etag).toBe(`${String(identity.headers.etag).slice(0, -1)}-${encoding}"`);
        expect(res.body.length).toBeLessThan(identity.body.length / 2);
        expect(withoutTimestamp(decode[encoding](res.body))).toEqual(withoutTimestamp(identity.body));
        const unchanged = await get(page, {
          "accept-encoding": accept,
          "if-none-match": String(res.headers.etag),
        });
        expect([unchanged.status, unchanged.headers.etag, unchanged.body.length]).toEqual([
          304,
          res.headers.etag,
          0,
        ]);
      }
    }
    // every one of those 8 requests was a URL answered before: the fast path wrote them all
    expect(served() - before).toBe(8);
    expect(identity.headers.vary).toBe("Authorization, Accept-Encoding");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    // each request counted once: 1 + 8 so far, this one the tenth
    expect((await get(page, { "accept-encoding": "br" })).headers["x-ratelimit-remaining"]).toBe("990");
  });

  it("is decoded by curl, for Brotli and gzip alike", async () => {
    const page = "/api/v1/quality?domain=rag&limit=20";
    const identity = await get(page);
    for (const encoding of ["br", "gzip"]) {
      const { stdout } = await promisify(execFile)(
        "curl",
        ["-sS", "--compressed", "-H", `Accept-Encoding: ${encoding}`, "-D", "-", `${url}${page}`],
        { encoding: "buffer", maxBuffer: 1 << 24 },
      );
      const split = stdout.indexOf("\r\n\r\n");
      expect(stdout.subarray(0, split).toString()).toContain(`content-encoding: ${encoding}`);
      expect(withoutTimestamp(stdout.subarray(split + 4))).toEqual(withoutTimestamp(identity.body));
    }
  });

  it("sends a page under the threshold as it is, varying by caller only", async () => {
    const res = await get("/api/v1/quality?domain=rag&limit=1", { "accept-encoding": "br, gzip" });
    expect(res.body.length).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect([res.status, res.headers["content-encoding"], res.headers.vary]).toEqual([
      200,
      undefined,
      "Authorization",
    ]);
  });
});
