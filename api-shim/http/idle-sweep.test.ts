// The idle sweep (server.ts) on a plain node:http server: a connection whose answer the server is still preparing is
// not idle, however long that takes; one whose client stopped reading is (api-shim/server.test.ts covers that case
// through the whole shim).
import { once } from "node:events";
import http from "node:http";
import { type AddressInfo, connect } from "node:net";
import { describe, expect, it } from "vitest";
import { sweepIdleConnections } from "./server.ts";

const IDLE_MS = 200;

describe("idle sweep", () => {
  it("keeps a connection whose response has not begun, past several idle timeouts, and answers on it", async () => {
    // the answer is held until the sweep has looked at the connection many times (12 sweeps of 50 ms): before the fix
    // it destroyed the socket between 200 and 250 ms, whatever the machine's speed, and the client saw a reset
    const server = http.createServer((_req, res) => {
      setTimeout(() => res.end("late but whole"), 3 * IDLE_MS);
    });
    sweepIdleConnections(server, IDLE_MS);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/slow`);
      expect([res.status, await res.text()]).toEqual([200, "late but whole"]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("still closes a connection on which nothing moves and no request is being answered", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    sweepIdleConnections(server, IDLE_MS);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      // connected, sends nothing: the sweep closes it (keep-alive's own timer is not armed before a first request)
      await once(socket, "close");
      expect(socket.bytesRead).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
