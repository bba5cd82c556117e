// Requests that say one thing in different words are read as that thing, over real sockets (issue 35, item 12): a
// project named five ways in one comparison, a release file's path percent-encoded after it was paid for, and
// Accept-Encoding's q-values.
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Fixture,
  listenOnLoopback,
  movableClock,
  sharedPublishedFixture,
  type TestApp,
  testApp,
} from "../testing.ts";

let fixture: Fixture;
let shim: TestApp;
let base: string;

beforeAll(async () => {
  fixture = await sharedPublishedFixture();
  shim = await testApp(fixture, {
    clock: movableClock("2026-03-02T10:00:00Z"),
    config: { quota: { anonymous: 50 } },
  });
  base = `http://127.0.0.1:${await listenOnLoopback(shim.app)}`;
});
afterAll(async () => {
  await shim.close();
  await fixture.cleanup();
});

const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));

describe("GET /api/v1/compare", () => {
  it("refuses one project named five ways (owner/repo, its slug, in any case) with 422, as it refuses a repeat", async () => {
    const res = await fetch(
      `${base}/api/v1/compare?projects=bolt/gamma,bolt--gamma,BOLT/GAMMA,Bolt--Gamma,bolt/Gamma`,
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { error: unknown } };
    expect(body.detail.error).toMatchObject({
      code: "invalid_parameter",
      message:
        'projects must be a comma-separated list of 2 to 5 distinct project slugs or owner/repo names; got "bolt/gamma,bolt--gamma,BOLT/GAMMA,Bolt--…".',
    });
    // two spellings of one project are as much a repeat as five
    expect((await fetch(`${base}/api/v1/compare?projects=bolt/gamma,Bolt--Gamma`)).status).toBe(422);
    // two projects, each named once in whatever form, are compared (the fixture release holds no details: both are
    // listed as missing, as asked)
    const two = await fetch(`${base}/api/v1/compare?projects=BOLT/GAMMA,echo--eta`);
    expect(two.status).toBe(200);
    expect(((await two.json()) as { meta: { missing: string[] } }).meta.missing).toEqual([
      "BOLT/GAMMA",
      "echo--eta",
    ]);
  });
});

describe("a release file paid for once a day", () => {
  it("is the same file however its path is percent-encoded: /datasets/%71uality.parquet is not paid again", async () => {
    const first = await fetch(`${base}/datasets/quality.parquet`);
    expect(first.status).toBe(200);
    const bytes = Buffer.from(await first.arrayBuffer());
    const paid = remaining(first);
    for (const spelling of [
      "/datasets/%71uality.parquet",
      "/datasets/quality%2Eparquet",
      "/%64atasets/quality.parquet",
    ]) {
      // twice each: the router's answer, then the fast path's for the URL it remembered
      for (let i = 0; i < 2; i++) {
        const again = await fetch(base + spelling);
        expect([spelling, again.status, remaining(again)]).toEqual([spelling, 200, paid]);
        expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
      }
    }
  });
});

describe("Accept-Encoding", () => {
  const page = "/api/v1/quality?domain=mcp";
  /** node:http, which leaves the body as sent (fetch would decode it). */
  const encodingOf = (accept: string) =>
    new Promise<{ encoding: string | null; raw: Buffer }>((resolve, reject) => {
      http
        .get(base + page, { headers: { "accept-encoding": accept } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ encoding: res.headers["content-encoding"] ?? null, raw: Buffer.concat(chunks) }),
          );
        })
        .on("error", reject);
    });

  it("weighs q-values: the highest wins, q=0 refuses, and ties go to Brotli, the server's preference", async () => {
    const plain = (await encodingOf("identity")).raw;
    expect(plain.length).toBeGreaterThan(1024);
    const cases: [string, string | null][] = [
      ["gzip;q=1.0, br;q=0.5", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
      ["gzip, br", "br"],
      ["gzip;q=0.8, br;q=0.8", "br"],
      ["br;q=0, gzip;q=0.001", "gzip"],
      ["*;q=0.5, br;q=0.2", "gzip"],
      ["br;q=0, gzip;q=0", null],
      ["gzip;q=0.5, identity", null],
    ];
    for (const [accept, expected] of cases) {
      const { encoding, raw } = await encodingOf(accept);
      expect([accept, encoding]).toEqual([accept, expected]);
      // meta.timestamp is the same within a millisecond only: compare the records
      const text = (
        expected === "br" ? brotliDecompressSync(raw) : expected === "gzip" ? gunzipSync(raw) : raw
      ).toString();
      expect(JSON.parse(text).data).toEqual(JSON.parse(plain.toString()).data);
    }
  });
});
