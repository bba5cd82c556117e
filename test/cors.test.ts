// CORS for a public read API, from a real browser: a page served by a second loopback origin (its own node:http
// server) calls the shim in headless Chromium — reads the X-RateLimit-* headers and the ETag of a GET, sends a key
// only by setting Authorization itself (after a preflight the shim answers uncounted), creates a key with a JSON
// POST, and cannot make a credentialed request at all. Over plain HTTP: the preflight's exact headers, and the CORS
// headers on errors too, never Access-Control-Allow-Credentials.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openKeyStore } from "../api-shim/keys/store.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader } from "../api-shim/release-reader.ts";
import { type Fixture, movableClock, publishedFixture } from "../api-shim/testing.ts";
import { loadConfig } from "../core/config.ts";
import { launchChromium, skipWithoutChromium } from "./chromium.ts";

const EXPOSED =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, Content-Range, Accept-Ranges, Content-Encoding";

let fixture: Fixture;
let app: FastifyInstance;
let api: string;
/** Methods and paths the shim saw, in order. */
const seen: string[] = [];
const close: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  fixture = await publishedFixture();
  const clock = movableClock("2026-03-02T10:00:00Z");
  const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 50, free: 7 } } });
  const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
  const quotas = await openEmbeddedQuotaStore();
  const keyStore = await openKeyStore({
    file: path.join(fixture.root, "keys.jsonl"),
    secret: "c".repeat(40),
    limits: { free: config.quota.free, email: config.quota.email },
    clock,
  });
  app = buildApp({ config, release, quotas, clock, keyStore });
  await app.listen({ host: "127.0.0.1", port: 0 });
  app.server.prependListener("request", (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
  api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close.push(
    () => app.close(),
    async () => release.close(),
    () => quotas.close(),
  );
});
afterAll(async () => {
  for (const step of close.reverse()) await step();
  await fixture?.cleanup();
});

describe("CORS over plain HTTP", () => {
  it("answers a preflight 204 with the policy and the caller's standing, uncounted", async () => {
    const res = await fetch(`${api}/api/v1/quality?domain=mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:9999",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(res.status).toBe(204);
    const { date: _, ...headers } = Object.fromEntries(res.headers);
    expect(headers).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": EXPOSED,
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": "Authorization, Content-Type, Range, If-None-Match, If-Range",
      "access-control-max-age": "86400",
      "x-ratelimit-limit": "50",
      "x-ratelimit-remaining": "50",
      "x-ratelimit-reset": "2026-03-03T00:00:00+00:00",
      connection: "keep-alive",
      "keep-alive": "timeout=5",
    });
  });

  it("puts the CORS headers on answers and errors, never allowing credentials", async () => {
    for (const [url, status] of [
      ["/api/v1/quality?domain=mcp", 200],
      ["/api/v1/quality?domain=nope", 422],
      ["/nothing", 404],
      ["/datasets/quality.parquet", 200],
    ] as const) {
      const res = await fetch(api + url, { headers: { origin: "http://localhost:9999" } });
      expect([res.status, res.headers.get("access-control-allow-origin")], url).toEqual([status, "*"]);
      expect(res.headers.get("access-control-expose-headers"), url).toBe(EXPOSED);
      expect(res.headers.get("access-control-allow-credentials"), url).toBeNull();
    }
  });

  it("states the policy in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${api}/api/v1/openapi.json`)).json()) as {
      info: { description: string; "x-cors": Record<string, unknown> };
    };
    expect(doc.info["x-cors"]).toEqual({
      "allow-origin": "*",
      "allow-credentials": false,
      "allow-methods": "GET, HEAD, POST",
      "allow-headers": ["Authorization", "Content-Type", "Range", "If-None-Match", "If-Range"],
      "expose-headers": EXPOSED.split(", "),
      "max-age": 86400,
    });
    expect(doc.info.description).toContain("Credentials are never allowed cross-origin");
  });
});

describe.skipIf(skipWithoutChromium)("CORS from a page of another origin", () => {
  let browser: Browser;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    // the second origin: a real server on another loopback port serving an empty page
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>another origin</title>");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(site.address() as AddressInfo).port}`;
    close.push(() => new Promise((resolve) => site.close(resolve)));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${origin}/`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("reads a GET's body, quota headers and ETag from another origin", async () => {
    const read = await page.evaluate(async (base) => {
      const res = await fetch(`${base}/api/v1/quality?domain=mcp&limit=2`);
      const body = (await res.json()) as { data: unknown[] };
      const h = (name: string) => res.headers.get(name);
      return {
        status: res.status,
        count: body.data.length,
        limit: h("x-ratelimit-limit"),
        remaining: h("x-ratelimit-remaining"),
        reset: h("x-ratelimit-reset"),
        etag: /^"[^"]+"$/.test(h("etag") ?? ""),
      };
    }, api);
    expect(read).toEqual({
      status: 200,
      count: 2,
      limit: "50",
      remaining: expect.stringMatching(/^\d+$/),
      reset: "2026-03-03T00:00:00+00:00",
      etag: true,
    });
  });

  it("sends a key only when the page sets it, after a preflight the quota does not count", async () => {
    const before = seen.length;
    const outcome = await page.evaluate(async (base) => {
      const created = await fetch(`${base}/api/v1/keys`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const key = ((await created.json()) as { data: { key: string } }).data.key;
      const keyed = await fetch(`${base}/api/v1/quality?domain=rag`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const anonymous = await fetch(`${base}/api/v1/quality?domain=rag`);
      return {
        created: created.status,
        keyed: [
          keyed.status,
          keyed.headers.get("x-ratelimit-limit"),
          keyed.headers.get("x-ratelimit-remaining"),
        ],
        anonymous: [anonymous.status, anonymous.headers.get("x-ratelimit-limit")],
      };
    }, api);
    expect(outcome).toEqual({ created: 200, keyed: [200, "7", "6"], anonymous: [200, "50"] });
    // the browser asked first for the JSON POST and for the Authorization header; the anonymous GET needed no preflight
    expect(seen.slice(before)).toEqual([
      "OPTIONS /api/v1/keys",
      "POST /api/v1/keys",
      "OPTIONS /api/v1/quality?domain=rag",
      "GET /api/v1/quality?domain=rag",
      "GET /api/v1/quality?domain=rag",
    ]);
  });

  it("refuses a request with the browser's credentials: the shim never allows them cross-origin", async () => {
    const outcome = await page.evaluate(async (base) => {
      try {
        await fetch(`${base}/api/v1/quality?domain=mcp`, { credentials: "include" });
        return "read";
      } catch (error) {
        return (error as Error).name;
      }
    }, api);
    expect(outcome).toBe("TypeError");
  });
});
