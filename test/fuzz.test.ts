// The shim under fuzzed HTTP over raw sockets: over 10,000 requests (fast-check generates well-formed ones on every
// route and broken ones of every kind, several to a connection) get no 5xx, a response each, every error in the
// envelope with X-RateLimit-*, and the server still answers a normal GET afterwards.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange, type RawResponse } from "../api-shim/http/raw-http.testing.ts";
import {
  type Fixture,
  listenOnLoopback,
  movableClock,
  publishedFixture,
  type TestApp,
  testApp,
} from "../api-shim/testing.ts";
import { ERROR_STATUS } from "../schemas/index.ts";
import { type Connection, connectionArbitrary } from "./fuzz-requests.ts";

/** Requests the fuzz sends at least. */
const MIN_REQUESTS = 10_000;
/** Connections open at once. */
const CONCURRENCY = 48;
const SEED = 20_261_125;
// Short, for stalls to be quick to test, yet not so short that a busy machine leaves a fresh connection unread
// that long (Node times a connection's first request from its accept: at 300 ms a loaded runner saw 408s).
const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500, keepAliveTimeoutMs: 1000 };

let fixture: Fixture;
let shim: TestApp;
let port: number;

beforeAll(async () => {
  fixture = await publishedFixture();
  shim = await testApp(fixture, {
    clock: movableClock("2026-03-02T10:00:00Z"),
    config: { quota: { anonymous: 1_000_000 }, shimServer: TIMEOUTS },
  });
  port = await listenOnLoopback(shim.app);
});
afterAll(async () => {
  await shim.close();
  await fixture.cleanup();
});

/** What is wrong with an error response, or undefined if it is a whole envelope with the quota headers. */
function envelopeProblem(res: RawResponse, head: boolean): string | undefined {
  if (res.headers["content-type"] !== "application/json; charset=utf-8") return "content-type";
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    if (res.headers[name] === undefined) return name;
  }
  if (head) return undefined; // a HEAD's error has the envelope's headers, never its body
  if (Number(res.headers["content-length"]) !== Buffer.byteLength(res.body)) return "content-length";
  try {
    const { code, message, request_id } = JSON.parse(res.body).detail.error;
    if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status) return `code ${code}`;
    if (typeof message !== "string" || typeof request_id !== "string") return "message or request_id";
  } catch {
    return "body is not the envelope";
  }
  return undefined;
}

interface Tally {
  requests: number;
  /** Final responses owed (requests after an Upgrade request or after the server's close are not). */
  owed: number;
  responses: number;
  errors: number;
  enveloped: number;
  serverErrors: string[];
  unanswered: string[];
  unenveloped: string[];
  statuses: Map<number, number>;
}

async function run(connection: Connection, tally: Tally): Promise<void> {
  const heads = connection.requests.map((r) => r.head);
  const result = await exchange(port, connection.requests.map((r) => r.text).join(""), {
    waitMs: 5000,
    isHead: (i) => heads[i] ?? false,
  });
  const finals = result.responses.filter((r) => r.status >= 200);
  const shown = JSON.stringify(connection.requests.map((r) => r.text.slice(0, 300)));
  tally.requests += connection.requestCount;
  tally.owed += connection.answersAtLeast;
  tally.responses += finals.length;
  if (finals.length < connection.answersAtLeast || !result.closedByServer) {
    const got = result.responses.map((r) => `${r.status} ${r.headers.connection ?? ""}`).join(", ");
    tally.unanswered.push(
      `${finals.length}/${connection.answersAtLeast} closed=${result.closedByServer} [${got}] ${JSON.stringify(result.trailing.slice(0, 100))} ${shown}`,
    );
  }
  for (const [i, res] of finals.entries()) {
    tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) tally.serverErrors.push(`${res.status} ${res.body} ${shown}`);
    if (res.status < 400) continue;
    tally.errors++;
    const problem = envelopeProblem(res, heads[i] ?? false);
    if (problem) tally.unenveloped.push(`${res.status} ${problem}: ${res.body.slice(0, 200)} ${shown}`);
    else tally.enveloped++;
  }
}

describe("fuzzed HTTP", () => {
  it("answers every request, never with a 5xx, every error in the envelope with quota headers", async () => {
    const tally: Tally = {
      requests: 0,
      owed: 0,
      responses: 0,
      errors: 0,
      enveloped: 0,
      serverErrors: [],
      unanswered: [],
      unenveloped: [],
      statuses: new Map(),
    };
    const started = Date.now();
    const cases = fc.sample(connectionArbitrary(), { numRuns: Math.ceil(MIN_REQUESTS / 2), seed: SEED });
    const queue = [...cases];
    // more connections until the request count is reached (the sample's size is a guess at its mean)
    let extra = 0;
    const next = (): Connection | undefined =>
      queue.shift() ??
      (tally.requests < MIN_REQUESTS
        ? fc.sample(connectionArbitrary(), { numRuns: 1, seed: SEED + ++extra })[0]
        : undefined);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let c = next(); c !== undefined; c = next()) await run(c, tally);
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `fuzz: ${tally.requests} requests, ${tally.owed} answers owed, ${tally.responses} responses, ${tally.errors} errors, ` +
        `${((100 * tally.enveloped) / Math.max(1, tally.errors)).toFixed(2)}% enveloped, ${seconds.toFixed(1)} s; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...tally.statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    expect(tally.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(tally.serverErrors.slice(0, 5)).toEqual([]);
    expect(tally.unanswered.slice(0, 5)).toEqual([]);
    expect(tally.unenveloped.slice(0, 5)).toEqual([]);
    expect(tally.enveloped).toBe(tally.errors);

    const after = await fetch(`http://127.0.0.1:${port}/api/v1/quality?domain=rag&limit=1`);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { meta: { total: number } }).meta.total).toBe(3);
  });
});
