// startServer over real HTTP on an ephemeral port.
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, statePaths } from "../core/config.ts";
import { keyedHash } from "./keys/secret.ts";
import { startServer } from "./server.ts";
import { type Fixture, movableClock, publishedFixture } from "./testing.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await publishedFixture();
});
afterAll(() => fixture.cleanup());

const clock = movableClock("2026-03-02T10:00:00Z");
const config = () =>
  loadConfig({ overrides: { stateDir: fixture.root, host: "127.0.0.1", port: 0, quota: { anonymous: 5 } } });
/** A quota no test here runs out of (the counts in the fixture's folder carry from test to test). */
const roomy = () =>
  loadConfig({
    overrides: { stateDir: fixture.root, host: "127.0.0.1", port: 0, quota: { anonymous: 1_000_000 } },
  });

describe("startServer", () => {
  it("serves over HTTP and keeps quota counts across a restart", async () => {
    const first = await startServer({ config: config(), clock });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${first.url}/api/v1/quality?domain=rag&limit=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(3);
    await fetch(`${first.url}/api/v1/quality?domain=rag`);
    await first.close();
    await first.close(); // closing twice is harmless
    // counted under the HMAC of the address (its secret made in the state folder), never the address itself
    const secret = (await readFile(statePaths(config()).secret, "utf8")).trim();
    expect(JSON.parse(await readFile(statePaths(config()).quotas, "utf8")).counts).toEqual({
      [keyedHash(secret, "quota:ip:127.0.0.1")]: 2,
    });

    const second = await startServer({ config: config(), clock });
    const again = await fetch(`${second.url}/api/v1/quality?domain=rag`);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("2");
    await second.close();
  });

  it("says what to do when the port is taken", async () => {
    const first = await startServer({ config: config(), clock });
    const port = Number(new URL(first.url).port);
    const taken = loadConfig({
      overrides: { stateDir: fixture.root, host: "127.0.0.1", port, quota: { store: "redis" } },
    });
    await expect(startServer({ config: taken, clock })).rejects.toMatchObject({
      message: expect.stringContaining(`The API shim cannot listen on 127.0.0.1:${port}`),
      hint: "Choose another port (PROJINTEL_PORT or --port) or stop the process holding it.",
    });
    await first.close();
  });

  /** A shim with a 500-ms idle timeout, its connections kept alive far longer: only the idle timeout closes them. */
  const idleTimeoutServer = () =>
    startServer({
      config: loadConfig({
        overrides: {
          stateDir: fixture.root,
          host: "127.0.0.1",
          port: 0,
          quota: { anonymous: 1_000_000 },
          shimServer: { keepAliveTimeoutMs: 600_000, idleTimeoutMs: 500 },
        },
      }),
      clock,
    });

  it("closes a connection whose reader stopped reading, once nothing has moved on it for idleTimeoutMs", async () => {
    const server = await idleTimeoutServer();
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const socket = net.connect(Number(new URL(server.url).port), "127.0.0.1");
    try {
      await once(socket, "connect");
      socket.pause(); // reads nothing
      // 100 pipelined requests for the OpenAPI document: far more bytes than loopback's buffers hold, so the
      // answers stall on the connection
      socket.write("GET /api/v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(100));
      await expect.poll(connections, { timeout: 30_000, interval: 50 }).toBe(0);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it("keeps a connection open past idleTimeoutMs while requests keep moving on it", async () => {
    const server = await idleTimeoutServer();
    const socket = net.connect(Number(new URL(server.url).port), "127.0.0.1");
    let closed = false;
    socket.on("close", () => {
      closed = true;
    });
    try {
      await once(socket, "connect");
      // one request every 200 ms for 2 s: four idle timeouts, never 500 ms without a byte
      let answers = 0;
      socket.on("data", (chunk: Buffer) => {
        answers += chunk.toString("latin1").split("HTTP/1.1 ").length - 1;
      });
      for (let i = 0; i < 10; i++) {
        socket.write("GET /api/v1/methodology HTTP/1.1\r\nHost: localhost\r\n\r\n");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect([closed, answers]).toEqual([false, 10]);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it("refuses a NUL character in a query value with 422, never echoing it", async () => {
    const server = await startServer({ config: roomy(), clock });
    try {
      for (const [query, name] of [
        ["domain=rag&subcategory=%00", "subcategory"],
        ["domain=rag%00", "domain"],
        ["domain=rag&subcategory=rag%00frameworks", "subcategory"],
      ]) {
        const res = await fetch(`${server.url}/api/v1/quality?${query}`);
        const text = await res.text();
        expect([res.status, JSON.parse(text).detail.error]).toMatchObject([
          422,
          {
            code: "invalid_parameter",
            message: `${name} contains a NUL character (%00, \\u0000), which no parameter accepts; remove it.`,
          },
        ]);
        expect(text).not.toContain('\\u0000"');
      }
    } finally {
      await server.close();
    }
  });

  it("answers /api/v1 and /api/v1/ with a 404 that points to the OpenAPI document and the docs", async () => {
    const server = await startServer({ config: roomy(), clock });
    try {
      for (const path of ["/api/v1", "/api/v1/"]) {
        const res = await fetch(`${server.url}${path}`);
        const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
        expect([res.status, body.detail.error.code, body.detail.error.message]).toEqual([
          404,
          "not_found",
          `No endpoint GET ${path}; every endpoint is listed in the OpenAPI document /api/v1/openapi.json and described at /docs.`,
        ]);
        expect(res.headers.get("x-ratelimit-limit")).toBe("1000000");
      }
    } finally {
      await server.close();
    }
  });

  it("answers a trailing slash or an empty segment with the same 404 on every route, naming the path without it", async () => {
    const server = await startServer({ config: roomy(), clock });
    const guide =
      "every endpoint is listed in the OpenAPI document /api/v1/openapi.json and described at /docs.";
    try {
      for (const [path, meant] of [
        ["/api/v1/quality/", "/api/v1/quality"],
        ["/api/v1/projects/langchain-ai--langchain/", "/api/v1/projects/langchain-ai--langchain"],
        ["/api/v1/projects/bulk/?slugs=langchain-ai--langchain", "/api/v1/projects/bulk"],
        ["/api/v1//quality?domain=rag", "/api/v1/quality"],
        ["/docs/", "/docs"],
      ] as const) {
        const res = await fetch(`${server.url}${path}`);
        const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
        expect([res.status, body.detail.error.code, body.detail.error.message], path).toEqual([
          404,
          "not_found",
          `No endpoint GET ${path.split("?")[0]} (paths take no trailing slash or empty segment: did you mean ${meant}?); ${guide}`,
        ]);
        expect(res.headers.get("x-ratelimit-limit"), path).toBe("1000000");
      }
      // and the same answer to a POST
      const post = await fetch(`${server.url}/api/v1/query/`, { method: "POST", body: "{}" });
      expect(post.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("refuses an unknown subcategory by name, with the domain's own or the closest ones", async () => {
    const server = await startServer({ config: roomy(), clock });
    const refusal = async (url: string) => {
      const res = await fetch(`${server.url}${url}`);
      const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
      return [res.status, body.detail.error.code, body.detail.error.message];
    };
    try {
      expect(await refusal("/api/v1/quality?domain=rag&subcategory=grap-rag")).toEqual([
        422,
        "invalid_parameter",
        '"grap-rag" is not a subcategory of rag; subcategory must be one of: graph-rag, rerankers, retrievers, chunking, rag-applications, rag-frameworks.',
      ]);
      const [status, code, message] = await refusal("/api/v1/trending?category=grap-rag");
      expect([status, code]).toEqual([422, "invalid_parameter"]);
      expect(message).toMatch(
        /^"grap-rag" is not a subcategory; category must be one of the \d+ subcategories .*Did you mean graph-rag\?$/,
      );
      expect((await fetch(`${server.url}/api/v1/quality?domain=rag&subcategory=graph-rag`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("answers a path parameter of any length the request line allows with the route's own 422", async () => {
    const server = await startServer({ config: roomy(), clock });
    try {
      for (const length of [201, 1_024, 1_025, 8_000]) {
        const res = await fetch(`${server.url}/api/v1/projects/${"a".repeat(length)}`);
        const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
        expect([res.status, body.detail.error.code], String(length)).toEqual([422, "invalid_parameter"]);
        expect(body.detail.error.message, String(length)).toContain("at most 200");
      }
    } finally {
      await server.close();
    }
  });

  it("names the real bound of a too-large offset, and a parameter without a name", async () => {
    const server = await startServer({ config: roomy(), clock });
    const refusal = async (query: string) => {
      const res = await fetch(`${server.url}/api/v1/quality?${query}`);
      const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
      return [res.status, body.detail.error.code, body.detail.error.message];
    };
    try {
      expect(await refusal("domain=rag&offset=9007199254740992")).toEqual([
        422,
        "invalid_parameter",
        'offset must be an integer of at least 0, and at most 9007199254740991 (the largest whole number the API counts to); got "9007199254740992".',
      ]);
      expect((await fetch(`${server.url}/api/v1/quality?domain=rag&offset=9007199254740991`)).status).toBe(
        200,
      );
      const [status, code, message] = await refusal("=rag");
      expect([status, code]).toEqual([422, "invalid_parameter"]);
      expect(message).toMatch(/^A parameter has no name \("=rag"\); name it: one of domain, /);
    } finally {
      await server.close();
    }
  });
});
