// The HTTP client against a real local server on 127.0.0.1 (real sockets, no mocks); sleeps are recorded, not slept.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../core/clock.ts";
import type { AppError } from "../../core/errors.ts";
import { createHttpClient, type HttpClientOptions, memoryEtagStore, RetryLaterError } from "./http.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;
let handler: Handler = (_req, res) => res.end("{}");
let hits = 0;
let inFlight = 0;
let maxInFlight = 0;
const seen: IncomingMessage[] = [];
const server = createServer((req, res) => {
  hits++;
  seen.push(req);
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  res.on("close", () => inFlight--);
  handler(req, res, hits);
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits = 0;
  maxInFlight = 0;
  seen.length = 0;
});

const now = new Date("2026-03-01T12:00:00Z");

function client(extra: Partial<HttpClientOptions> = {}) {
  const sleeps: number[] = [];
  const http = createHttpClient({
    userAgent: "projintel-test/1",
    timeoutMs: 2000,
    retries: 3,
    perHostConcurrency: 4,
    maxRetryWaitMs: 120_000,
    sleep: async (ms) => void sleeps.push(ms),
    clock: fixedClock(now),
    random: () => 0,
    ...extra,
  });
  return { http, sleeps };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

describe("createHttpClient", () => {
  it("retries a 503 with jittered backoff, then returns the parsed body and counts both requests", async () => {
    handler = (_req, res, hit) =>
      hit === 1 ? json(res, 503, { message: "busy" }) : json(res, 200, { ok: true });
    const { http, sleeps } = client();
    const result = await http.request(`${base}/a`, { source: "test" });
    expect(result).toMatchObject({ status: 200, decision: "ok", body: { ok: true } });
    expect(sleeps).toEqual([500]); // first backoff 1000 ms, equal jitter with random() = 0 → 500 ms
    expect(http.stats().bySource.test).toEqual({ requests: 2, not_modified: 0, retries: 1 });
    expect(Object.values(http.stats().byHost)).toEqual([2]);
    expect(seen[0]?.headers["user-agent"]).toBe("projintel-test/1");
    http.close();
  });

  it("honours Retry-After (seconds and HTTP date) and x-ratelimit-reset", async () => {
    const reset = String(now.getTime() / 1000 + 30);
    handler = (_req, res, hit) => {
      if (hit === 1) return json(res, 429, {}, { "retry-after": "7" });
      if (hit === 2) return json(res, 403, {}, { "retry-after": "Sun, 01 Mar 2026 12:00:09 GMT" });
      if (hit === 3)
        return json(
          res,
          403,
          { message: "API rate limit exceeded" },
          { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
        );
      json(res, 200, [1]);
    };
    const { http, sleeps } = client();
    expect((await http.request(`${base}/b`, { source: "test" })).body).toEqual([1]);
    expect(sleeps).toEqual([7000, 9000, 30_000]);
    http.close();
  });

  it("does not sleep through a wait longer than maxRetryWaitMs: it throws a transient error saying when", async () => {
    handler = (_req, res) => json(res, 403, {}, { "retry-after": "3600" });
    const { http, sleeps } = client();
    const error = await http.request(`${base}/c`, { source: "test" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLaterError);
    expect((error as RetryLaterError).kind).toBe("transient");
    expect((error as RetryLaterError).retryAt.toISOString()).toBe("2026-03-01T13:00:00.000Z");
    expect((error as Error).message).toContain("retry after 2026-03-01T13:00:00.000Z");
    expect(sleeps).toEqual([]);
    // The pause is remembered: the next request to that host is not even sent.
    await expect(http.request(`${base}/c2`, { source: "test" })).rejects.toBeInstanceOf(RetryLaterError);
    expect(hits).toBe(1);
    http.close();
  });

  it("skips 404, fails 401 with a token hint, and gives up on persistent 5xx as transient", async () => {
    handler = (req, res) => {
      if (req.url === "/missing") return json(res, 404, { message: "Not Found" });
      if (req.url === "/secret") return json(res, 401, { message: "Bad credentials" });
      json(res, 500, {});
    };
    const { http, sleeps } = client({ retries: 2 });
    expect(await http.request(`${base}/missing`, { source: "test" })).toMatchObject({
      decision: "skip",
      status: 404,
    });
    const denied = await http.request(`${base}/secret`, { source: "test" }).catch((e: AppError) => e);
    expect(denied).toMatchObject({ kind: "terminal" });
    expect((denied as AppError).hint).toContain("PROJINTEL_GITHUB__TOKENS");
    const down = await http.request(`${base}/down`, { source: "test" }).catch((e: AppError) => e);
    expect(down).toMatchObject({ kind: "transient" });
    expect((down as Error).message).toContain("failed after 3 attempts: 500 server error");
    expect(sleeps).toEqual([500, 1000]);
    http.close();
  });

  it("times out a slow response and retries it", async () => {
    handler = (_req, res, hit) =>
      hit === 1 ? setTimeout(() => json(res, 200, { late: true }), 1000) : json(res, 200, { on: "time" });
    const { http, sleeps } = client({ timeoutMs: 100 });
    expect((await http.request(`${base}/slow`, { source: "test" })).body).toEqual({ on: "time" });
    expect(sleeps).toEqual([500]);
    expect(http.stats().bySource.test?.retries).toBe(1);
    http.close();
  });

  it("retries a 200 whose JSON body is cut off", async () => {
    handler = (_req, res, hit) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(hit === 1 ? '{"data": {"no' : '{"data": 1}');
    };
    const { http } = client();
    expect((await http.request(`${base}/cut`, { source: "test" })).body).toEqual({ data: 1 });
    expect(hits).toBe(2);
    http.close();
  });

  it("hands a body that stays malformed over as its text after the retries, for the connector to quarantine", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data": {"no');
    };
    const { http } = client();
    const result = await http.request(`${base}/broken`, { source: "test" });
    expect([result.decision, result.status, result.body]).toEqual(["ok", 200, '{"data": {"no']);
    expect(result.reason).toBe("200 with a malformed JSON body");
    expect(hits).toBe(4);
    http.close();
  });

  it("parses JSON only when the content-type says JSON or is missing, so a README starting with [![ is text", async () => {
    const readme = "[![build](https://example.org/badge.svg)](https://example.org)\n# Title\n";
    handler = (req, res) => {
      if (req.url === "/readme") {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        return res.end(readme);
      }
      if (req.url === "/html") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("{not json}");
      }
      if (req.url === "/star") {
        res.writeHead(200, { "content-type": "application/vnd.github.star+json; charset=utf-8" });
        return res.end('[{"starred_at":"2026-03-01T00:00:00Z"}]');
      }
      if (req.url === "/bare") return res.end('{"bare": true}');
      return res.end("plain words");
    };
    const { http } = client();
    const get = async (path: string) => (await http.request(`${base}${path}`, { source: "test" })).body;
    expect(await get("/readme")).toBe(readme);
    expect(await get("/html")).toBe("{not json}");
    expect(await get("/star")).toEqual([{ starred_at: "2026-03-01T00:00:00Z" }]);
    expect(await get("/bare")).toEqual({ bare: true });
    expect(await get("/words")).toBe("plain words");
    expect(hits).toBe(5); // none of them was retried as malformed JSON
    http.close();
  });

  it("never has more than perHostConcurrency requests in flight to one host for one source", async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, {}), 40);
    const { http } = client({ perHostConcurrency: 3 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => http.request(`${base}/p${i}`, { source: "test" })),
    );
    expect(hits).toBe(12);
    expect(maxInFlight).toBe(3);
    // Each source has its own limit, even on a shared host (as every source is on the simulator).
    maxInFlight = 0;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => http.request(`${base}/q${i}`, { source: i % 2 ? "one" : "two" })),
    );
    expect(maxInFlight).toBe(6);
    http.close();
  });

  it("sends If-None-Match from the ETag store and answers a 304 with the stored body, outside the budget", async () => {
    handler = (req, res) =>
      req.headers["if-none-match"] === '"v1"'
        ? res.writeHead(304, { etag: '"v1"' }).end()
        : json(res, 200, { version: 1 }, { etag: '"v1"' });
    const { http } = client({ etags: memoryEtagStore(), budgets: { test: 1 } });
    const first = await http.request(`${base}/e`, { source: "test", conditional: true });
    const second = await http.request(`${base}/e`, { source: "test", conditional: true });
    expect(first).toMatchObject({ decision: "ok", body: { version: 1 } });
    expect(second).toMatchObject({ decision: "not_modified", status: 304, body: { version: 1 } });
    expect(http.stats().bySource.test).toEqual({ requests: 2, not_modified: 1, retries: 0 });
    // The budget of one request is spent by the 200 only; the next unconditional request is refused unsent.
    await expect(http.request(`${base}/f`, { source: "test" })).rejects.toThrow(
      "test request budget of 1 is spent",
    );
    expect(hits).toBe(2);
    http.close();
  });

  it("keeps in the ETag store what `keep` makes of a body, and answers a 304 with it; a body it refuses, whole", async () => {
    handler = (req, res) =>
      req.headers["if-none-match"] === '"v1"'
        ? res.writeHead(304, { etag: '"v1"' }).end()
        : json(res, 200, { version: 1, readme: "x".repeat(1000) }, { etag: '"v1"' });
    const etags = memoryEtagStore();
    const { http } = client({ etags });
    const keep = (body: unknown) => {
      const { version } = body as { version?: unknown };
      return typeof version === "number" ? { version } : undefined;
    };
    const first = await http.request(`${base}/k`, { source: "test", conditional: true, keep });
    expect(first).toMatchObject({ decision: "ok", body: { version: 1, readme: "x".repeat(1000) } });
    expect(await etags.get(`${base}/k`)).toEqual({ etag: '"v1"', body: '{"version":1}' });
    const second = await http.request(`${base}/k`, { source: "test", conditional: true, keep });
    expect([second.decision, second.body]).toEqual(["not_modified", { version: 1 }]);
    // an entry stored whole before is replaced by its projection at its next 304
    await etags.set(`${base}/k`, '"v1"', JSON.stringify({ version: 1, readme: "x".repeat(1000) }));
    const third = await http.request(`${base}/k`, { source: "test", conditional: true, keep });
    expect([third.decision, await etags.get(`${base}/k`)]).toEqual([
      "not_modified",
      { etag: '"v1"', body: '{"version":1}' },
    ]);
    // a body the projection refuses is kept as it came
    handler = (_req, res) => json(res, 200, { name: "no version" }, { etag: '"v2"' });
    await http.request(`${base}/r`, { source: "test", conditional: true, keep });
    expect(await etags.get(`${base}/r`)).toEqual({ etag: '"v2"', body: '{"name":"no version"}' });
    http.close();
  });

  it("posts JSON bodies", async () => {
    handler = (req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => json(res, 200, { echo: JSON.parse(text), method: req.method }));
    };
    const { http } = client();
    const result = await http.request(`${base}/graphql`, {
      source: "test",
      method: "POST",
      json: { query: "{x}" },
    });
    expect(result.body).toEqual({ echo: { query: "{x}" }, method: "POST" });
    http.close();
  });
});
