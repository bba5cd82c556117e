// Every status the OpenAPI document lists on an operation is one the server sends to it, and every status the server
// sends to it is listed: for each operation of the document a real shim serves, over raw sockets, the requests that
// provoke each status (two Host headers, a bad key, a method the path does not take, a stalled request, an Expect
// other than 100-continue, an unknown parameter, a used-up quota, oversized headers, a conditional GET, an unknown
// item, a range past a file, a body too large or of another type). 500 and 503 are listed everywhere and provoked
// only by a failing server, so they are the two left out of "every listed status was seen".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange } from "../api-shim/http/raw-http.testing.ts";
import { type RunningServer, startServer } from "../api-shim/server.ts";
import { loadConfig } from "../core/config.ts";
import { type SimRelease, simRelease } from "./sim-release.ts";

const QUOTA = 3;
/** Short stalls, yet long enough that a busy machine reads a fresh connection in time (api-shim/http/envelope-raw.test.ts). */
const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500, keepAliveTimeoutMs: 1000 };
const UNPROVOKED = new Set(["500", "503"]);

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; example?: unknown }[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, unknown>;
}

let release: SimRelease;
let server: RunningServer;
let port: number;
let operations: Operation[];

beforeAll(async () => {
  release = await simRelease();
  const config = loadConfig({
    overrides: {
      stateDir: release.stateDir,
      host: "127.0.0.1",
      port: 0,
      trustProxyHops: 1,
      // one key a day per address, so a second key creation from one address is refused (429)
      quota: { anonymous: QUOTA, keyCreations: 1 },
      shimServer: TIMEOUTS,
    },
  });
  server = await startServer({ config });
  port = Number(new URL(server.url).port);
  const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Omit<Operation, "method" | "path">>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await release?.cleanup();
});

/** Each request from its own client address, so the quota runs out only where a probe means it to. */
let addresses = 0;
const nextAddress = () => `198.18.${(++addresses >> 8) & 255}.${addresses & 255}`;

/**
 * The operation's URL with its path parameters and required query parameters filled with their examples (with
 * `missingItem`, an item no release holds).
 */
function urlOf(
  op: Operation,
  missingItem = false,
  required: "example" | "blank" | "unknown" = "example",
): string {
  let url = op.path;
  const query = new URLSearchParams();
  const last = (op.parameters ?? []).filter((p) => p.in === "path").at(-1);
  for (const p of op.parameters ?? []) {
    const example = String(p.example ?? "x");
    if (p.in === "path") {
      // the item asked for (the last path parameter) named as nothing is
      const value =
        missingItem && p === last ? `no-such-item${/\.[a-z]+$/.exec(example)?.[0] ?? ""}` : example;
      url = url.replace(`{${p.name}}`, p.name === "file" ? value : encodeURIComponent(value));
    } else if (p.required) {
      // blank, or each item of a list named as nothing is (distinct: a list refuses a name twice)
      const unknown = example
        .split(",")
        .map((_, i) => `nosuch${i}--nothing${i}`)
        .join(",");
      query.set(p.name, required === "blank" ? " " : required === "unknown" ? unknown : example);
    }
  }
  return query.size > 0 ? `${url}?${query}` : url;
}

/** Sends one request (the head's lines after the request line) and answers its status. */
async function statusOf(
  method: string,
  url: string,
  lines: string[] = [],
  body = "",
  address = nextAddress(),
): Promise<number> {
  const head = [
    `${method} ${url} HTTP/1.1`,
    "Host: shim",
    `X-Forwarded-For: ${address}`,
    "Connection: close",
    ...lines,
  ];
  const length = body || method === "POST" ? [`Content-Length: ${Buffer.byteLength(body)}`] : [];
  // the server closes the connection once it has answered (a query may first wait for its worker to start)
  const result = await exchange(port, `${[...head, ...length].join("\r\n")}\r\n\r\n${body}`, {
    isHead: () => method === "HEAD",
    waitMs: 120_000,
  });
  return result.responses[0]?.status ?? 0;
}

/** The statuses a probe of each kind draws from the operation. */
async function provoke(op: Operation): Promise<Map<string, string>> {
  const url = urlOf(op);
  const seen = new Map<string, string>();
  const add = (probe: string, status: number) => seen.set(probe, String(status));
  const json = ["Content-Type: application/json"];
  const example = op.requestBody?.content?.["application/json"]?.example;
  const body = op.requestBody ? JSON.stringify(example ?? {}) : "";
  add("plain", await statusOf(op.method, url, [...json], body));
  add("two Host headers", await statusOf(op.method, url, ["Host: second"]));
  add("a bad key", await statusOf(op.method, url, ["Authorization: Bearer pis_not-a-key"]));
  add("another method", await statusOf(op.method === "GET" ? "DELETE" : "PUT", url));
  add("Expect: teapot", await statusOf(op.method, url, ["Expect: teapot"]));
  // a required parameter left blank (a route ignoring unknown parameters still refuses its own)
  if ((op.parameters ?? []).some((p) => p.in === "query" && p.required)) {
    add("a blank required parameter", await statusOf(op.method, urlOf(op, false, "blank"), [...json], body));
    add("items no release holds", await statusOf(op.method, urlOf(op, false, "unknown"), [...json], body));
  }
  add(
    "an unknown parameter",
    await statusOf(op.method, `${url}${url.includes("?") ? "&" : "?"}no_such_parameter=1`, json, body),
  );
  add("20 KB of headers", await statusOf(op.method, url, [`X-Padding: ${"x".repeat(20_000)}`]));
  // a request whose headers never end
  const stalled = await exchange(port, `${op.method} ${url} HTTP/1.1\r\nHost: shim\r\n`, { waitMs: 10_000 });
  add("headers that never end", stalled.responses[0]?.status ?? 0);
  // an address that has used up its quota elsewhere (a file read is counted once a day, so not by reading it again)
  const address = nextAddress();
  for (let i = 0; i < QUOTA; i++) {
    const spent = await fetch(`${server.url}/api/v1/status`, { headers: { "x-forwarded-for": address } });
    await spent.arrayBuffer();
  }
  const over = await fetch(`${server.url}${url}`, {
    method: op.method,
    headers: { "x-forwarded-for": address, "content-type": "application/json" },
    ...(op.method === "POST" ? { body } : {}),
  });
  await over.arrayBuffer();
  add("past the quota", over.status);
  if (op.method === "GET") {
    // asked as the probes ask (no Accept-Encoding): a precompressed copy has an ETag of its own
    const first = (
      await exchange(
        port,
        `GET ${url} HTTP/1.1\r\nHost: shim\r\nX-Forwarded-For: ${nextAddress()}\r\nConnection: close\r\n\r\n`,
        {
          waitMs: 120_000,
        },
      )
    ).responses[0];
    const etag = first?.headers.etag;
    if (etag) add("If-None-Match", await statusOf("GET", url, [`If-None-Match: ${etag}`]));
    if (op.path.includes("{")) {
      add("an unknown item", await statusOf("GET", urlOf(op, true)));
      // a path parameter no item can have (a route ignoring unknown query parameters still refuses it)
      add(
        "a malformed item",
        await statusOf("GET", urlOf(op, true).replace("no-such-item", "no%20such%20item")),
      );
    }
    if (first?.headers["accept-ranges"] === "bytes") {
      add("a range past the end", await statusOf("GET", url, ["Range: bytes=1000000000-"]));
      add("a range", await statusOf("GET", url, ["Range: bytes=0-9"]));
    }
  }
  if (op.responses["504"]) {
    // a SQL query that runs past its deadline (the server's own, 10 s): its worker gives no answer in time
    const runaway = JSON.stringify({ sql: "SELECT count(*) FROM range(1000000000000) a" });
    add("a query past its deadline", await statusOf(op.method, url, json, runaway));
  }
  if (op.requestBody) {
    // the same request twice from one address: what a per-address daily cap refuses (key creation)
    const twice = nextAddress();
    await statusOf(op.method, url, json, body, twice);
    add("twice from one address", await statusOf(op.method, url, json, body, twice));
    add("a 2 MB body", await statusOf(op.method, url, json, `{"padding":"${"x".repeat(2_000_000)}"}`));
    add("a text body", await statusOf(op.method, url, ["Content-Type: text/plain"], "hello"));
  }
  return seen;
}

describe("the OpenAPI document's statuses", () => {
  it("lists on each operation exactly the statuses the server sends to it (500 and 503 aside)", async () => {
    expect(operations.length).toBeGreaterThanOrEqual(30);
    // probed a few operations at a time (each probe speaks from its own address, so they do not interfere)
    const results: (readonly [Operation, Map<string, string>])[] = [];
    for (let i = 0; i < operations.length; i += 6) {
      const batch = operations.slice(i, i + 6);
      results.push(...(await Promise.all(batch.map(async (op) => [op, await provoke(op)] as const))));
    }
    for (const [op, probes] of results) {
      const listed = Object.keys(op.responses).sort();
      const seen = [...new Set(probes.values())].sort();
      const name = `${op.method} ${op.path}`;
      expect(
        [...probes].filter(([, s]) => !listed.includes(s)),
        `${name} sent statuses it does not list (probe, status)`,
      ).toEqual([]);
      expect(
        listed.filter((s) => !seen.includes(s) && !UNPROVOKED.has(s)),
        `${name} lists statuses never sent`,
      ).toEqual([]);
    }
  }, 600_000);
});
