// fast-check arbitraries of HTTP/1.1 connections for the fuzz test: a few well-formed requests on any route (any
// method, query, headers, bodies) and, often, a broken one last (bytes at random, or one of the ways a request
// goes wrong below the router). How many responses each connection must at least get is known from its parts.
import fc from "fast-check";
import { ROUTES } from "../publish/routes/index.ts";
import { FIXTURE_ROWS } from "../publish/testing.ts";

export interface FuzzRequest {
  text: string;
  head: boolean;
}

export interface Connection {
  requests: FuzzRequest[];
  /**
   * Final responses the server owes: one per well-formed request and one for a broken tail with any byte in it, up
   * to a request asking for an Upgrade (answered with Connection: close: what follows it is not read).
   */
  answersAtLeast: number;
  /** Requests sent: a tail of nothing but CR and LF is none (the server skips empty lines before a request). */
  requestCount: number;
}

const SLUGS = FIXTURE_ROWS.slice(0, 3).map((r) => r.full_name.replace("/", "--"));
const PATH_PARAM = fc.constantFrom(
  ...SLUGS,
  "mcp",
  "rag",
  "nobody--nothing",
  "%zz",
  "a%2Fb",
  "%C3%A9",
  "..",
  "x".repeat(300),
);
const QUERY_PART = fc.constantFrom(
  "domain=rag",
  "domain=mcp",
  "domain=nope",
  "limit=1",
  "limit=0",
  "limit=abc",
  "limit=99999",
  "offset=3",
  "offset=-1",
  "q=alpha",
  "q=%E0%A4%A",
  "sort=stars",
  "unknown=1",
  "ids=echo/eta,bolt/gamma",
  "%zz=1",
  "domain=",
  "a[b]=c",
);
const SAFE_TEXT = fc.string({ unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?%"), maxLength: 40 });

const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...ROUTES.map((r) => r.path)), PATH_PARAM)
      .map(([p, v]) => p.replace(/\{\w+\}/g, v)),
  },
  { weight: 1, arbitrary: SAFE_TEXT.map((t) => `/api/v1/${t}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "/",
      "*",
      "/api/v1/",
      "//api//v1//quality",
      "/api/v1/quality/",
      "http://shim/api/v1/quality",
    ),
  },
);
const target = fc
  .tuple(path, fc.array(QUERY_PART, { maxLength: 3 }))
  .map(([p, q]) => (q.length > 0 && !p.includes("?") && p !== "*" ? `${p}?${q.join("&")}` : p));

const COMMON_HEADER = fc.constantFrom(
  "Accept: application/json\r\n",
  "Accept-Encoding: gzip, br\r\n",
  "Authorization: Bearer pis_notakey\r\n",
  "Authorization: Basic Zm9vOmJhcg==\r\n",
  'If-None-Match: "abc", *\r\n',
  'If-None-Match: W/"x"\r\n',
  "X-Forwarded-For: 10.0.0.1, 10.0.0.2\r\n",
  "Expect: 100-continue\r\n",
  "Cookie: a=b\r\n",
  "Range: bytes=0-10\r\n",
);
// Rare: the connection closes after an Upgrade request, so what follows it is not owed an answer.
const HEADER = fc.oneof(
  { weight: 30, arbitrary: COMMON_HEADER },
  { weight: 1, arbitrary: fc.constant("Upgrade: websocket\r\nConnection: Upgrade\r\n") },
);
const BODY = fc.oneof(
  fc.constantFrom('{"sql":"SELECT 1"}', '{"email":"a@b.c"}', "{", "[]", "null", '{"a":'.repeat(50)),
  fc.string({ maxLength: 200 }),
);
const CONTENT_TYPE = fc.constantFrom(
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "",
);

/** A request no HTTP/1.1 server should refuse at the protocol level (the API may still refuse it). */
const wellFormed = fc
  .record({
    method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"),
    target,
    headers: fc.array(HEADER, { maxLength: 3 }),
    body: fc.option(fc.tuple(BODY, CONTENT_TYPE, fc.boolean()), { freq: 2 }),
  })
  .map(({ method, target: t, headers, body }): FuzzRequest => {
    let text = `${method} ${t} HTTP/1.1\r\nHost: shim\r\n${headers.join("")}`;
    if (body) {
      const [content, type, chunked] = body;
      const bytes = Buffer.from(content, "utf8");
      if (type) text += `Content-Type: ${type}\r\n`;
      text += chunked
        ? `Transfer-Encoding: chunked\r\n\r\n${bytes.length.toString(16)}\r\n${bytes.toString("latin1")}\r\n0\r\n\r\n`
        : `Content-Length: ${bytes.length}\r\n\r\n${bytes.toString("latin1")}`;
      if (chunked && bytes.length === 0) text = text.replace("0\r\n\r\n0\r\n\r\n", "0\r\n\r\n");
    } else {
      text += "\r\n";
    }
    return { text, head: method === "HEAD" };
  });

const bytes = (max: number) =>
  fc.uint8Array({ maxLength: max }).map((b) => Buffer.from(b).toString("latin1"));

/** A request that goes wrong: below the router, or in its body. */
const broken = fc.oneof(
  { weight: 3, arbitrary: bytes(120) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(wellFormed, fc.nat())
      .map(([r, n]) => r.text.slice(0, n % Math.max(1, r.text.length))),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(wellFormed, fc.nat(), bytes(4)).map(([r, n, b]) => {
      const at = n % Math.max(1, r.text.length);
      return r.text.slice(0, at) + b + r.text.slice(at + b.length);
    }),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "GET\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: shim\r\nX\u0001y: 1\r\n\r\n",
      "FOO /api/v1/quality HTTP/1.1\r\nHost: shim\r\n\r\n",
      "GET /api/v1/quality HTTP/1.1\r\n\r\n",
      "GET /api/v1/quality HTTP/1.0\r\n\r\n",
      "GET /api/v1/quality HTTP/1.1\r\nHost: shim\r\nExpect: tea\r\n\r\n",
      "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n",
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      "POST /api/v1/query HTTP/1.1\r\nHost: shim\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST /api/v1/query HTTP/1.1\r\nHost: shim\r\nContent-Length: abc\r\n\r\n",
      "POST /api/v1/query HTTP/1.1\r\nHost: shim\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "POST /api/v1/query HTTP/1.1\r\nHost: shim\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}",
      "GET /api/v1/quality HTTP/1.1\r\nHost: shim\r\nContent-Length: 3\r\n\r\nabcdef",
      "GET /api/v1/quality HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
      "GET /api/v1/quality HTTP/3.0\r\nHost: shim\r\n\r\n",
      "GET /api/v1/qu ality HTTP/1.1\r\nHost: shim\r\n\r\n",
      "\r\n\r\nX",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `GET /${"a".repeat(17_000)} HTTP/1.1\r\nHost: shim\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: shim\r\nX: ${"b".repeat(17_000)}\r\n\r\n`,
    ),
  },
);

export function connectionArbitrary(): fc.Arbitrary<Connection> {
  return fc
    .record({ requests: fc.array(wellFormed, { maxLength: 4 }), tail: fc.option(broken, { freq: 2 }) })
    .filter(({ requests, tail }) => requests.length > 0 || (tail !== null && /[^\r\n]/.test(tail)))
    .map(({ requests, tail }) => {
      const all = [...requests];
      const upgrade = requests.findIndex((r) => r.text.includes("\r\nUpgrade:"));
      const requestCount = requests.length + (tail !== null && /[^\r\n]/.test(tail) ? 1 : 0);
      const answersAtLeast = upgrade >= 0 ? upgrade + 1 : requestCount;
      if (tail !== null) all.push({ text: tail, head: tail.startsWith("HEAD ") });
      else {
        // the last request asks the server to close, so the connection's end says all was answered
        const last = all.at(-1) as FuzzRequest;
        last.text = last.text.replace("Host: shim\r\n", "Host: shim\r\nConnection: close\r\n");
      }
      return { requests: all, answersAtLeast, requestCount };
    });
}
