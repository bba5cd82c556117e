// Slow-reading MCP clients (issue 35, item 8): one address with one key opens 300 connections, each sending a POST
// /mcp run_query whose answer is a row of 499,000 backslashes (the most escaping JSON can add), one after another over
// 19 s, through sockets whose receive buffer is 4 KB (SO_RCVBUF, set by a python3 helper: Node's net.Socket cannot set
// it) and that never read.
// Meanwhile another address calls every 500 ms. Reports the shim's peak resident memory, and the other caller's
// latencies (MCP run_query and a REST page).
import { spawn } from "node:child_process";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { median, watchResident } from "./measure.ts";
import { serveArgs, startChild } from "./shim.ts";

const READERS = 300;
/** The receive buffer of each slow reader's socket, as the attack set it. */
const RECEIVE_BUFFER_BYTES = 4096;
/** The readers connect one after another over this time (the attack: 300 calls in 19 s)... */
const SPREAD_SECONDS = 19;
/** ...and then hold their connections this long, reading nothing. */
const HOLD_SECONDS = 5;
const SAMPLE_MS = 50;
const OTHER_EVERY_MS = 500;
const ATTACKER = "198.18.8.1";
const OTHER = "198.18.8.2";
const SQL = "SELECT repeat('\\', 499000) AS s";

/** Sockets with a small receive buffer that connect, send their request and never read (python3's socket module). */
const HELPER = `
import socket, sys, time
port, count, rcvbuf, spread, hold = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
request = sys.stdin.buffer.read()
sockets = []
for _ in range(count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)  # before connect: it sets the window offered
    s.connect(("127.0.0.1", port))
    s.sendall(request)
    sockets.append(s)
    time.sleep(spread / count)
print("sent", flush=True)
time.sleep(hold)
`;

function mcpCall(sql: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "run_query", arguments: { sql } },
  });
}

function rawMcpRequest(body: string, address: string, key: string): Buffer {
  const head = [
    "POST /mcp HTTP/1.1",
    "Host: bench",
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Mcp-Protocol-Version: ${LATEST_PROTOCOL_VERSION}`,
    `Authorization: Bearer ${key}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Forwarded-For: ${address}`,
    "",
    "",
  ].join("\r\n");
  return Buffer.from(head + body);
}

/** Needs a state folder holding a published release and its public database. */
export async function benchSlowReaders(stateDir: string) {
  const shim = await startChild(serveArgs(stateDir), {
    PROJINTEL_QUOTA__ANONYMOUS: "1000000",
    PROJINTEL_TRUST_PROXY_HOPS: "1",
  });
  const pid = shim.child.pid;
  try {
    const headers = (address: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      "x-forwarded-for": address,
    });
    const created = await fetch(`${shim.url}/api/v1/keys`, { method: "POST", headers: headers(ATTACKER) });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    // the query workers started, and the other caller's answer measured once
    const other = async () => {
      const started = performance.now();
      const mcp = await fetch(`${shim.url}/mcp`, {
        method: "POST",
        headers: headers(OTHER),
        body: mcpCall("SELECT count(*) AS n FROM projects"),
      });
      await mcp.arrayBuffer();
      const mcpMs = performance.now() - started;
      const page = await fetch(`${shim.url}/api/v1/quality?domain=rag`, {
        headers: { "x-forwarded-for": OTHER },
      });
      await page.arrayBuffer();
      return {
        mcpMs,
        restMs: performance.now() - started - mcpMs,
        ok: mcp.status === 200 && page.status === 200,
      };
    };
    await other();
    // the same calls with no attack, for comparison on a machine as busy
    const quiet: Awaited<ReturnType<typeof other>>[] = [];
    for (let i = 0; i < 5; i++) quiet.push(await other());
    const watch = await watchResident(pid, SAMPLE_MS);
    const latencies: Awaited<ReturnType<typeof other>>[] = [];
    let calling = true;
    const caller = (async () => {
      while (calling) {
        latencies.push(await other());
        await new Promise((resolve) => setTimeout(resolve, OTHER_EVERY_MS));
      }
    })();
    const port = new URL(shim.url).port;
    const helper = spawn(
      "python3",
      [
        "-c",
        HELPER,
        port,
        String(READERS),
        String(RECEIVE_BUFFER_BYTES),
        String(SPREAD_SECONDS),
        String(HOLD_SECONDS),
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    helper.stdin.end(rawMcpRequest(mcpCall(SQL), ATTACKER, key));
    const started = performance.now();
    await new Promise((resolve) => helper.once("exit", resolve));
    const heldMs = performance.now() - started;
    // the slow readers gone: what stays
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    calling = false;
    await caller;
    const { before, peak, after } = await watch.stop();
    const mcpMs = latencies.map((l) => l.mcpMs);
    const restMs = latencies.map((l) => l.restMs);
    const round = (ms: number) => Math.round(ms);
    return {
      readers: READERS,
      receive_buffer_bytes: RECEIVE_BUFFER_BYTES,
      sql: SQL,
      held_ms: round(heldMs),
      shim_rss_before_mib: before,
      shim_rss_peak_mib: peak,
      shim_rss_after_mib: after,
      other_caller_without_attack: {
        mcp_run_query_ms: round(median(quiet.map((l) => l.mcpMs))),
        rest_page_ms: round(median(quiet.map((l) => l.restMs))),
      },
      other_caller: {
        calls: latencies.length,
        failed: latencies.filter((l) => !l.ok).length,
        mcp_run_query_ms: { median: round(median(mcpMs)), max: round(Math.max(...mcpMs)) },
        rest_page_ms: { median: round(median(restMs)), max: round(Math.max(...restMs)) },
      },
    };
  } finally {
    shim.child.kill();
  }
}

// `node --import tsx bench/slow-readers.ts <state folder>`: this bench alone, on a state folder holding a release
if (process.argv[1]?.endsWith("slow-readers.ts") && process.argv[2]) {
  process.stdout.write(`${JSON.stringify(await benchSlowReaders(process.argv[2]), null, 2)}\n`);
}
