// Every refusal the HTTP layer makes below the router, over a raw socket: the exact status, the error envelope,
// the X-RateLimit-* headers of the caller's standing (uncounted), Connection: close and the socket then ended.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Fixture,
  listenOnLoopback,
  movableClock,
  sharedPublishedFixture,
  type TestApp,
  testApp,
} from "../testing.ts";
import { exchange, type RawResponse } from "./raw-http.testing.ts";

const LIMIT = 50;
// Short, for stalls to be quick to test, yet not so short that a busy machine leaves a fresh connection unread
// that long (Node times a connection's first request from its accept: at 300 ms a loaded runner saw 408s).
const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500, keepAliveTimeoutMs: 1000 };
const RESET = "2026-03-03T00:00:00+00:00";
const OK_URL = "/api/v1/quality?domain=rag&limit=1";
/** A route taking a JSON body of at most 64 bytes, added for the body tests (the served routes take none yet). */
const ECHO = "/api/v1/test-echo";

let fixture: Fixture;
let shim: TestApp;
let port: number;
/** Requests Fastify counted against 127.0.0.1 so far: the remaining quota every response must show. */
let counted = 0;

beforeAll(async () => {
  fixture = await sharedPublishedFixture();
  shim = await testApp(fixture, {
    clock: movableClock("2026-03-02T10:00:00Z"),
    config: { quota: { anonymous: LIMIT }, shimServer: TIMEOUTS },
  });
  shim.app.post(ECHO, { bodyLimit: 64 }, async (request) => ({ received: request.body }));
  port = await listenOnLoopback(shim.app);
});
afterAll(async () => {
  await shim.close();
  await fixture.cleanup();
});

const get = (target: string, headers = "Host: shim\r\n") => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

function expectEnvelope(res: RawResponse | undefined, status: number, code: string, message: string) {
  expect(res?.status).toBe(status);
  expect(res?.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(Number(res?.headers["content-length"])).toBe(Buffer.byteLength(res?.body ?? ""));
  expect([
    res?.headers["x-ratelimit-limit"],
    res?.headers["x-ratelimit-remaining"],
    res?.headers["x-ratelimit-reset"],
  ]).toEqual([String(LIMIT), String(LIMIT - counted), RESET]);
  expect(JSON.parse(res?.body ?? "")).toEqual({
    detail: { error: { code, message, request_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-z]+$/) } },
  });
}

/** One request refused below the router: one enveloped response, then the server closes the connection. */
async function expectRefusedBelow(request: string | string[], status: number, code: string, message: string) {
  const result = await exchange(port, request, { pauseMs: 50 });
  expect(result.responses).toHaveLength(1);
  expectEnvelope(result.responses[0], status, code, message);
  expect(result.responses[0]?.headers.connection).toBe("close");
  expect([result.closedByServer, result.trailing]).toEqual([true, ""]);
  return result;
}

describe("requests refused below the router", () => {
  it("shows the caller's standing without counting the refusal", async () => {
    const first = await exchange(port, get(OK_URL, "Host: shim\r\nConnection: close\r\n"));
    counted++;
    expect(first.responses.map((r) => [r.status, r.headers["x-ratelimit-remaining"]])).toEqual([
      [200, String(LIMIT - 1)],
    ]);
    for (let i = 0; i < 2; i++) {
      await expectRefusedBelow(
        "GET\r\n\r\n",
        400,
        "bad_request",
        "The request line is not `METHOD /path HTTP/1.1`; send a valid HTTP/1.1 request.",
      );
    }
  });

  it("refuses a malformed header, an unknown method and HTTP/2's preface with 400", async () => {
    await expectRefusedBelow(
      "GET / HTTP/1.1\r\nHost: shim\r\nX\u0001y: 1\r\n\r\n",
      400,
      "bad_request",
      "A header name or value holds a character HTTP does not allow; send names as tokens and values as visible text.",
    );
    await expectRefusedBelow(
      "FOO /api/v1/quality HTTP/1.1\r\nHost: shim\r\n\r\n",
      400,
      "bad_request",
      "The request's method is not an HTTP method; the API answers GET, HEAD and POST.",
    );
    await expectRefusedBelow(
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      400,
      "bad_request",
      "HTTP/2 with prior knowledge is not supported; send HTTP/1.1.",
    );
  });

  it("refuses a URL or headers past Node's 16 KiB with 431", async () => {
    const message =
      "The request line and headers are larger than 16384 bytes; shorten the URL or the headers.";
    await expectRefusedBelow(
      get(`/api/v1/quality?q=${"a".repeat(20_000)}`),
      431,
      "headers_too_large",
      message,
    );
    await expectRefusedBelow(
      get("/", `Host: shim\r\nX-Big: ${"b".repeat(20_000)}\r\n`),
      431,
      "headers_too_large",
      message,
    );
  });

  it("refuses an HTTP/1.1 request without Host (HTTP/1.0 needs none)", async () => {
    await expectRefusedBelow(
      `GET ${OK_URL} HTTP/1.1\r\n\r\n`,
      400,
      "bad_request",
      "An HTTP/1.1 request must carry a Host header.",
    );
    const old = await exchange(port, `GET ${OK_URL} HTTP/1.0\r\n\r\n`);
    counted++;
    expect(old.responses.map((r) => r.status)).toEqual([200]);
  });

  it("refuses two Host headers, and the asterisk target on anything but OPTIONS, with 400", async () => {
    await expectRefusedBelow(
      get(OK_URL, "Host: shim\r\nHost: elsewhere\r\n"),
      400,
      "bad_request",
      "An HTTP/1.1 request must carry one Host header, not 2.",
    );
    // well-formed otherwise: answered, and the connection goes on to the next request
    const asterisk = await exchange(port, [get("*"), get(OK_URL)], { pauseMs: 50 });
    expectEnvelope(
      asterisk.responses[0],
      400,
      "bad_request",
      'The request target "*" is for OPTIONS only; GET needs a path.',
    );
    counted++;
    expect(asterisk.responses.map((r) => r.status)).toEqual([400, 200]);
  });

  it("refuses an Expect other than 100-continue with 417, and continues after 100-continue", async () => {
    await expectRefusedBelow(
      get(OK_URL, "Host: shim\r\nExpect: something\r\n"),
      417,
      "expectation_failed",
      "Only `Expect: 100-continue` is supported; drop the Expect header.",
    );
    const body = '{"a":1}';
    const head = `POST ${ECHO} HTTP/1.1\r\nHost: shim\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const continued = await exchange(port, [head, body], { pauseMs: 100 });
    counted++;
    expect(continued.responses.map((r) => [r.status, r.body])).toEqual([
      [100, ""],
      [200, '{"received":{"a":1}}'],
    ]);
    // Pipelined, the 100 Continue is queued before the page's head: it must stay before it, not land inside the page.
    const pipelined = await exchange(
      port,
      `${get(OK_URL)}${get(OK_URL, "Host: shim\r\nExpect: 100-continue\r\nConnection: close\r\n")}`,
    );
    counted += 2;
    expect(
      pipelined.responses.map((r) => [r.status, r.status === 200 && JSON.parse(r.body).meta.count]),
    ).toEqual([
      [200, 1],
      [100, false],
      [200, 1],
    ]);
    expect(pipelined.trailing).toBe("");
  });

  it("answers CONNECT with 405 and Allow: this is no proxy", async () => {
    const { responses } = await expectRefusedBelow(
      "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n",
      405,
      "method_not_allowed",
      "CONNECT is not allowed: this is not a proxy; the API answers GET, HEAD, POST on /api/v1/ paths.",
    );
    expect(responses[0]?.headers.allow).toBe("GET, HEAD, POST");
  });

  it("serves a request asking for an Upgrade as a plain request, then closes (Node drops what follows it)", async () => {
    const upgrade = await exchange(
      port,
      `${get(OK_URL, "Host: shim\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n")}${get(OK_URL)}`,
    );
    counted++;
    expect(upgrade.responses.map((r) => [r.status, r.headers.connection])).toEqual([[200, "close"]]);
    expect(upgrade.closedByServer).toBe(true);
  });

  it("answers 408 when the request stalls: no request at all, headers, body", async () => {
    const message =
      "The request did not arrive in time (headers within 1000 ms, the whole request within 1500 ms); send it without pausing.";
    const bare = await expectRefusedBelow("\r\n\r\n", 408, "request_timeout", message);
    expect(bare.ms).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeoutMs);
    await expectRefusedBelow("GET / HTTP/1.1\r\nHost: shim\r\n", 408, "request_timeout", message);
    counted++; // the stalled body's request reached the router and was counted there
    const body = await expectRefusedBelow(
      `POST ${ECHO} HTTP/1.1\r\nHost: shim\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a"`,
      408,
      "request_timeout",
      message,
    );
    expect(body.ms).toBeGreaterThanOrEqual(TIMEOUTS.requestTimeoutMs);
  });
});

describe("request bodies refused", () => {
  const post = (headers: string, body: string) =>
    `POST ${ECHO} HTTP/1.1\r\nHost: shim\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
  const framing =
    "The request's Content-Length or Transfer-Encoding is invalid, or both are sent; send one valid length or chunked encoding.";

  it("refuses a malformed chunked body", async () => {
    counted++; // its headers were whole: the router counted it before the body broke
    await expectRefusedBelow(
      post("Transfer-Encoding: chunked\r\n", "zz\r\n{}\r\n0\r\n\r\n"),
      400,
      "bad_request",
      "The request's chunked body is malformed; send valid chunks or a Content-Length body.",
    );
  });

  it("refuses an invalid Content-Length, or one sent with Transfer-Encoding", async () => {
    await expectRefusedBelow(post("Content-Length: abc\r\n", ""), 400, "bad_request", framing);
    await expectRefusedBelow(
      post("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
      400,
      "bad_request",
      framing,
    );
  });

  it("refuses a body past the route's limit with 413, counted as any routed request", async () => {
    counted++;
    const { responses } = await exchange(
      port,
      post(`Content-Length: 100\r\nConnection: close\r\n`, `{"a":"${"x".repeat(92)}"}`),
    );
    expect(responses).toHaveLength(1);
    expectEnvelope(responses[0], 413, "payload_too_large", "The request body is too large.");
  });

  it("answers pipelined requests in order, the broken one last", async () => {
    counted += 2;
    const { responses, closedByServer } = await exchange(
      port,
      `${get(OK_URL)}${get(OK_URL)}BAD\u0000\r\n\r\n`,
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400]);
    expect(closedByServer).toBe(true);
    expectEnvelope(
      responses[2],
      400,
      "bad_request",
      "The request's method is not an HTTP method; the API answers GET, HEAD and POST.",
    );
  });
});

describe("behind a trusted proxy", () => {
  it("shows the forwarded client's standing, read from the refused bytes", async () => {
    // Its own app over the same quota store, so the proxy's own standing is what the tests above used.
    const behind = await testApp(fixture, {
      clock: movableClock("2026-03-02T10:00:00Z"),
      config: { quota: { anonymous: LIMIT }, trustProxyHops: 1, shimServer: TIMEOUTS },
      quotas: shim.quotas,
    });
    const at = await listenOnLoopback(behind.app);
    const forwarded = "Host: shim\r\nX-Forwarded-For: 203.0.113.7\r\n";
    const remaining = async (request: string) =>
      (await exchange(at, request)).responses.map((r) => [r.status, r.headers["x-ratelimit-remaining"]]);
    try {
      expect(await remaining(get(OK_URL, `${forwarded}Connection: close\r\n`))).toEqual([[200, "49"]]);
      expect(await remaining(get(OK_URL, `${forwarded}X\u0001y: 1\r\n`))).toEqual([[400, "49"]]);
      expect(await remaining(`CONNECT a:443 HTTP/1.1\r\n${forwarded}\r\n`)).toEqual([[405, "49"]]);
      // without X-Forwarded-For the caller is the proxy itself (127.0.0.1, with what it used above)
      expect(await remaining("GET\r\n\r\n")).toEqual([[400, String(LIMIT - counted)]]);
    } finally {
      // not behind.close(): the quota store is the shared one, closed after all tests
      await behind.app.close();
      behind.release.close();
    }
  });
});
