// The shim's errors and quotas through app.inject(): envelope bodies, statuses, X-RateLimit-* and addresses.
import type { InjectOptions } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../schemas/index.ts";
import { type Fixture, movableClock, publishedFixture, type TestApp, testApp } from "./testing.ts";

let fixture: Fixture;
let shim: TestApp;
const clock = movableClock("2026-03-02T10:00:00Z");

beforeAll(async () => {
  fixture = await publishedFixture();
});
afterAll(() => fixture.cleanup());
afterEach(() => shim?.close());

async function start(config: Parameters<typeof testApp>[1]["config"] = {}) {
  clock.set("2026-03-02T10:00:00Z");
  shim = await testApp(fixture, { clock, config });
  // A route that fails unexpectedly and one that takes a JSON body, to see how the error handler treats them.
  shim.app.get("/test/boom", async () => {
    throw new Error("secret detail at /srv/app.ts:12");
  });
  shim.app.post("/test/echo", { bodyLimit: 64 }, async (request) => request.body);
  return shim;
}

const inject = (options: InjectOptions) => shim.app.inject({ remoteAddress: "203.0.113.7", ...options });

/** The error body without its request id, which is checked separately. */
function error(res: Awaited<ReturnType<typeof inject>>) {
  const body = res.json() as { detail: { error: Record<string, string> } };
  const { request_id: requestId, ...rest } = body.detail.error;
  expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(res.headers["cache-control"]).toBe("no-store");
  return { status: res.statusCode, ...rest };
}

describe("errors", () => {
  it("422 invalid_domain names the allowed values", async () => {
    await start();
    expect(error(await inject({ url: "/api/v1/quality?domain=crypto" }))).toEqual({
      status: 422,
      code: "invalid_domain",
      message: `"crypto" is not a supported domain; domain must be one of: ${DOMAINS.join(", ")}.`,
    });
  });

  it.each([
    ["limit=0", 'limit must be an integer from 1 to 500; got "0".'],
    ["limit=501", 'limit must be an integer from 1 to 500; got "501".'],
    ["limit=ten", 'limit must be an integer from 1 to 500; got "ten".'],
    ["offset=-1", 'offset must be an integer of at least 0; got "-1".'],
    ["min_score=101", 'min_score must be an integer from 0 to 100; got "101".'],
    [
      "quality_tier=gold",
      'quality_tier must be one of: verified, established, emerging, experimental; got "gold".',
    ],
    [
      "limt=5",
      'Unknown parameter "limt"; allowed: domain, subcategory, quality_tier, min_score, limit, offset.',
    ],
    ["limit=5&limit=6", "limit was given 2 times; give it once."],
  ])("422 invalid_parameter for %s", async (query, message) => {
    await start();
    expect(error(await inject({ url: `/api/v1/quality?domain=mcp&${query}` }))).toEqual({
      status: 422,
      code: "invalid_parameter",
      message,
    });
  });

  it("422 missing_parameter without a domain", async () => {
    await start();
    expect(error(await inject({ url: "/api/v1/quality?limit=5" }))).toEqual({
      status: 422,
      code: "missing_parameter",
      message: `domain is required and must be one of: ${DOMAINS.join(", ")}.`,
    });
  });

  it("404 not_found for unknown routes, in the envelope", async () => {
    await start();
    expect(error(await inject({ url: "/api/v1/nothing?key=pis_abc" }))).toEqual({
      status: 404,
      code: "not_found",
      message:
        "No endpoint GET /api/v1/nothing; every endpoint is listed in the OpenAPI document /api/v1/openapi.json and described at /docs.",
    });
    expect(error(await inject({ url: "/api/v1/%E0%A4%A" }))).toEqual({
      status: 404,
      code: "not_found",
      message: "The URL's path is not validly percent-encoded, so it names no endpoint.",
    });
    const body = await inject({
      method: "POST",
      url: "/nope",
      payload: "{bad",
      headers: { "content-type": "application/json" },
    });
    expect(error(body)).toMatchObject({ status: 404, code: "not_found" });
  });

  it("405 method_not_allowed with Allow, even for methods Fastify does not route and before reading a body", async () => {
    await start();
    for (const method of ["POST", "DELETE", "PROPFIND"] as const) {
      const res = await inject({
        method,
        url: "/api/v1/quality?domain=mcp",
        payload: "{bad",
        headers: { "content-type": "application/json" },
      });
      expect(error(res)).toEqual({
        status: 405,
        code: "method_not_allowed",
        message: `${method} is not allowed on /api/v1/quality; use GET, HEAD.`,
      });
      expect(res.headers.allow).toBe("GET, HEAD");
    }
  });

  it("maps malformed bodies to invalid_json, payload_too_large and unsupported_media_type", async () => {
    await start();
    const post = (payload: string, type: string) =>
      inject({ method: "POST", url: "/test/echo", payload, headers: { "content-type": type } });
    expect(error(await post("{bad", "application/json"))).toEqual({
      status: 400,
      code: "invalid_json",
      message: "The request body is not valid JSON.",
    });
    expect(error(await post(JSON.stringify({ text: "x".repeat(100) }), "application/json"))).toMatchObject({
      status: 413,
      code: "payload_too_large",
    });
    expect(error(await post("a=b", "application/x-www-form-urlencoded"))).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    expect((await post('{"ok":true}', "application/json")).json()).toEqual({ ok: true });
  });

  it("500 internal_error without leaking the failure", async () => {
    await start();
    const res = await inject({ url: "/test/boom" });
    expect(error(res)).toEqual({
      status: 500,
      code: "internal_error",
      message: "The server failed to handle this request; it has been logged.",
    });
    expect(res.body).not.toMatch(/secret|\/srv|at /);
  });

  it("401 invalid_api_key for any bearer key without a key store, never counted against the address", async () => {
    await start({ quota: { anonymous: 5 } });
    for (const authorization of ["Bearer pis_abc", "Basic dXNlcjpwdw==", "Bearer"]) {
      const res = await inject({ url: "/api/v1/quality?domain=mcp", headers: { authorization } });
      expect(error(res)).toMatchObject({ status: 401, code: "invalid_api_key" });
      expect(res.body).not.toContain("pis_abc");
    }
    const res = await inject({ url: "/api/v1/quality?domain=mcp" });
    expect(res.headers["x-ratelimit-remaining"]).toBe("4");
  });

  it("503 unavailable before the first release", async () => {
    const empty = await publishedFixture();
    await empty.storage.delete("releases/current.json");
    shim = await testApp(empty, { clock });
    const res = await inject({ url: "/api/v1/quality?domain=mcp" });
    expect(error(res)).toEqual({
      status: 503,
      code: "unavailable",
      message: "No data has been published yet; try again later.",
    });
    expect(res.headers["retry-after"]).toBe("60");
    await empty.cleanup();
  });
});

describe("quotas", () => {
  const headers = (res: Awaited<ReturnType<typeof inject>>) => [
    res.statusCode,
    res.headers["x-ratelimit-limit"],
    res.headers["x-ratelimit-remaining"],
    res.headers["x-ratelimit-reset"],
  ];

  it("puts X-RateLimit-* on every response and answers 429 when the quota is used up", async () => {
    await start({ quota: { anonymous: 3 } });
    const reset = "2026-03-03T00:00:00+00:00";
    expect(headers(await inject({ url: "/api/v1/quality?domain=mcp" }))).toEqual([200, "3", "2", reset]);
    expect(headers(await inject({ url: "/api/v1/quality?domain=crypto" }))).toEqual([422, "3", "1", reset]);
    expect(headers(await inject({ url: "/nowhere" }))).toEqual([404, "3", "0", reset]);
    clock.set("2026-03-02T23:59:30Z");
    const refused = await inject({ url: "/api/v1/quality?domain=mcp" });
    expect(headers(refused)).toEqual([429, "3", "0", reset]);
    expect(refused.headers["retry-after"]).toBe("30");
    expect(error(refused)).toEqual({
      status: 429,
      code: "rate_limit_exceeded",
      message: `The daily quota of 3 requests without an API key is used up; it resets at ${reset} (midnight UTC, in 1 min). A free API key raises it to 1000 a day (10000 with an e-mail address): create one with POST /api/v1/keys (no body needed; never refused for this quota) and send it as Authorization: Bearer <key>.`,
    });
    // 00:00 UTC starts a new day
    clock.set("2026-03-03T00:00:00Z");
    expect(headers(await inject({ url: "/api/v1/quality?domain=mcp" }))).toEqual([
      200,
      "3",
      "2",
      "2026-03-04T00:00:00+00:00",
    ]);
  });

  it("counts exactly under concurrent requests", async () => {
    await start({ quota: { anonymous: 50 } });
    const all = await Promise.all(
      Array.from({ length: 120 }, () => inject({ url: "/api/v1/quality?domain=rag" })),
    );
    expect(all.filter((r) => r.statusCode === 200)).toHaveLength(50);
    expect(all.filter((r) => r.statusCode === 429)).toHaveLength(70);
  });

  it("counts each address separately, IPv6 by /64 and IPv4-mapped IPv6 as IPv4", async () => {
    await start({ quota: { anonymous: 10 } });
    const remaining = async (remoteAddress: string) =>
      (await inject({ url: "/api/v1/quality?domain=mcp", remoteAddress })).headers["x-ratelimit-remaining"];
    expect(await remaining("198.51.100.1")).toBe("9");
    expect(await remaining("198.51.100.2")).toBe("9");
    expect(await remaining("::ffff:198.51.100.1")).toBe("8");
    expect(await remaining("2001:db8:1:2::1")).toBe("9");
    expect(await remaining("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("8");
    expect(await remaining("2001:db8:1:3::1")).toBe("9");
  });

  it("believes X-Forwarded-For only for the configured number of proxy hops", async () => {
    const remaining = async (forwardedFor: string) =>
      (
        await inject({
          url: "/api/v1/quality?domain=mcp",
          remoteAddress: "10.0.0.1",
          headers: { "x-forwarded-for": forwardedFor },
        })
      ).headers["x-ratelimit-remaining"];
    await start({ quota: { anonymous: 10 }, trustProxyHops: 0 });
    expect(await remaining("198.51.100.1")).toBe("9");
    expect(await remaining("198.51.100.2")).toBe("8"); // all from the socket address 10.0.0.1
    await shim.close();
    await start({ quota: { anonymous: 10 }, trustProxyHops: 1 });
    expect(await remaining("198.51.100.1")).toBe("9");
    expect(await remaining("192.0.2.66, 198.51.100.1")).toBe("8"); // a spoofed first entry changes nothing
    expect(await remaining("198.51.100.2")).toBe("9");
    await shim.close();
    await start({ quota: { anonymous: 10 }, trustProxyHops: 2 });
    expect(await remaining("192.0.2.66, 198.51.100.1")).toBe("9");
    expect(await remaining("192.0.2.66, 198.51.100.2")).toBe("8"); // the client is 2 hops back: 192.0.2.66
  });
});
