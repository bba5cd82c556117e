// The shim's memory while clients hold its largest answers unread: a real shim process (`projintel serve`), then 12
// raw sockets each sending the query whose answer is as large as the byte cap allows (through POST /api/v1/query,
// then through MCP run_query, whose JSON-RPC text escapes it once more) and never reading a byte. Reports the shim's
// resident memory before, its peak while they stall, and after the idle timeout (30 s by default) has dropped them.
import net from "node:net";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../core/config.ts";
import { QUERY_LIMITS } from "../core/query/limits.ts";
import { watchResident } from "./measure.ts";
import { serveArgs, startChild } from "./shim.ts";

const READERS = 12;
const SAMPLE_MS = 50;
/** Rows of 100,000 characters: the byte cap cuts the answer just under its 1,000,000 bytes. */
const LARGEST = "SELECT repeat('x', 100000) AS s FROM range(100)";

function post(pathname: string, body: string, address: string, extra: string[] = []): string {
  return [
    `POST ${pathname} HTTP/1.1`,
    "Host: bench",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Forwarded-For: ${address}`,
    ...extra,
    "",
    body,
  ].join("\r\n");
}

const requests = {
  query: (address: string) => post("/api/v1/query", JSON.stringify({ sql: LARGEST }), address),
  mcp: (address: string) =>
    post(
      "/mcp",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "run_query", arguments: { sql: LARGEST } },
      }),
      address,
      ["Accept: application/json, text/event-stream", `Mcp-Protocol-Version: ${LATEST_PROTOCOL_VERSION}`],
    ),
};

/**
 * Sockets that send one request each and read nothing for the shim's idle timeout and 5 s more (the shim's memory
 * sampled meanwhile); then they read, and count how many the shim had closed.
 */
async function stall(port: number, kind: keyof typeof requests, pid: number | undefined, idleMs: number) {
  const watch = await watchResident(pid, SAMPLE_MS);
  const sockets = Array.from({ length: READERS }, (_, i) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.on("error", () => {});
    socket.write(requests[kind](`198.18.7.${i + 1}`));
    socket.pause(); // nothing is read: the answer waits in the kernel's buffers and the shim's
    return socket;
  });
  await new Promise((resolve) => setTimeout(resolve, idleMs + 5_000));
  const { before, peak, after } = await watch.stop();
  // reading now drains what was sent; a connection the shim closed then ends at once
  const closed = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 5_000);
          socket.on("close", () => {
            clearTimeout(timer);
            resolve(true);
          });
          socket.resume();
        }),
    ),
  );
  for (const socket of sockets) socket.destroy();
  return {
    readers: READERS,
    shim_rss_before_mib: before,
    shim_rss_peak_mib: peak,
    shim_rss_after_idle_timeout_mib: after,
    closed_by_shim: closed.filter(Boolean).length,
  };
}

/** Needs a state folder holding a published release and its public database. */
export async function benchStalledReaders(stateDir: string) {
  const shim = await startChild(serveArgs(stateDir), {
    PROJINTEL_QUOTA__ANONYMOUS: "1000000000",
    PROJINTEL_TRUST_PROXY_HOPS: "1",
  });
  const idleMs = loadConfig().shimServer.idleTimeoutMs;
  try {
    const port = Number(new URL(shim.url).port);
    // the workers started and the answer's size, read once in full
    const probe = await fetch(`${shim.url}/api/v1/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: LARGEST }),
    });
    const answerBytes = (await probe.arrayBuffer()).byteLength;
    return {
      sql: LARGEST,
      answer_bytes: answerBytes,
      byte_cap: QUERY_LIMITS.maxBytes,
      idle_timeout_ms: idleMs,
      query: await stall(port, "query", shim.child.pid, idleMs),
      mcp_run_query: await stall(port, "mcp", shim.child.pid, idleMs),
    };
  } finally {
    shim.child.kill();
  }
}
