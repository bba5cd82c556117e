// The bounds on answers building or unread (issue 35, item 8), over real sockets: clients that never read hold their
// reservations until they close, one more past the address's bound is refused at once, another address is served;
// pipelined requests past a connection's bound are refused in order; and the app reserves for /mcp.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Fixture,
  listenOnLoopback,
  movableClock,
  sharedPublishedFixture,
  type TestApp,
  testApp,
} from "../testing.ts";
import { exchange } from "./raw-http.testing.ts";
import { UnreadAnswers } from "./unread.ts";

/** Larger than the kernel takes for a client that reads nothing (its send buffer is 4 MB at most): Node holds the rest. */
const ANSWER_BYTES = 12_000_000;
const LIMITS = { perConnectionBytes: 2_000_000, perAddressBytes: 3_000_000 } as const;

describe("UnreadAnswers on a node:http server", () => {
  let server: http.Server;
  let port: number;
  const unread = new UnreadAnswers(LIMITS);
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const address = String(req.headers["x-client"]);
      const refused = unread.reserve(req.socket, res, address, 1_000_000);
      if (refused) {
        res.writeHead(refused.status, { "content-type": "text/plain" });
        res.end(refused.message);
        return;
      }
      res.end(Buffer.alloc(ANSWER_BYTES, 120));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const request = (client: string, close = true) =>
    `GET / HTTP/1.1\r\nHost: t\r\nX-Client: ${client}\r\n${close ? "Connection: close\r\n" : ""}\r\n`;

  it("refuses an address's next answer once its unread ones reach the bound, and serves it again when they close", async () => {
    const stalled: net.Socket[] = [];
    const stall = (client: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect({ port, host: "127.0.0.1" });
        stalled.push(socket);
        socket.once("data", (chunk: Buffer) => {
          socket.pause();
          resolve(chunk.toString("latin1").split("\r\n")[0] ?? "");
        });
        socket.write(request(client));
      });
    try {
      for (let i = 0; i < 3; i++) expect(await stall("a")).toBe("HTTP/1.1 200 OK");
      expect(unread.addressBytes("a")).toBe(3_000_000);
      const refused = await exchange(port, request("a"), { waitMs: 10_000 });
      expect(refused.responses.map((r) => [r.status, r.body])).toEqual([
        [
          429,
          "Your address has 3 MB of answers building or not yet read over its connections, the most one address may hold (3 MB); read them before sending more requests.",
        ],
      ]);
      // another address is served in full
      const other = await exchange(port, request("b"), { waitMs: 30_000 });
      expect([other.responses[0]?.status, other.responses[0]?.body.length]).toEqual([200, ANSWER_BYTES]);
      // one unread answer's connection closes: its reservation goes with it
      stalled[0]?.destroy();
      for (let tries = 0; unread.addressBytes("a") > 2_000_000 && tries < 100; tries++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unread.addressBytes("a")).toBe(2_000_000);
      expect(await stall("a")).toBe("HTTP/1.1 200 OK");
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });

  it("answers pipelined requests past a connection's bound with 429, in order, and releases what was read", async () => {
    const sent = await exchange(port, request("c", false) + request("c", false) + request("c"), {
      waitMs: 30_000,
    });
    expect(sent.responses.map((r) => [r.status, r.status === 200 ? r.body.length : 0])).toEqual([
      [200, ANSWER_BYTES],
      [200, ANSWER_BYTES],
      [429, 0],
    ]);
    expect(sent.responses[2]?.body).toBe(
      "This connection has 2 MB of answers building or not yet read by your client, the most one connection may hold (2 MB); read them before sending the next request.",
    );
    // all read: nothing is held
    expect(unread.addressBytes("c")).toBe(0);
  });
});

describe("the app", () => {
  let fixture: Fixture;
  let shim: TestApp;
  let port: number;
  beforeAll(async () => {
    fixture = await sharedPublishedFixture();
    shim = await testApp(fixture, { clock: movableClock("2026-03-02T10:00:00Z") });
    port = await listenOnLoopback(shim.app);
  });
  afterAll(async () => {
    await shim.close();
    await fixture.cleanup();
  });

  it("reserves a megabyte for each /mcp answer: a third pipelined on one connection is refused before it is built", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_methodology" },
    });
    const post = (close: boolean) =>
      [
        "POST /mcp HTTP/1.1",
        "Host: t",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...(close ? ["Connection: close"] : []),
        "",
        body,
      ].join("\r\n");
    const sent = await exchange(port, post(false) + post(false) + post(true), { waitMs: 30_000 });
    expect(sent.responses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(JSON.parse(sent.responses[2]?.body ?? "").detail.error).toMatchObject({
      code: "rate_limit_exceeded",
      message:
        "This connection has 2 MB of answers building or not yet read by your client, the most one connection may hold (2 MB); read them before sending the next request.",
    });
    expect(sent.responses[2]?.headers["retry-after"]).toBe("1");
  });
});
