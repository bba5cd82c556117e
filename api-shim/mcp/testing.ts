// MCP clients for tests and the benchmark, the SDK's own: one spawning `projintel mcp` over stdio, one speaking
// Streamable HTTP to a shim's /mcp and keeping every HTTP response it got (status and headers) for the quota checks.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCP_PATH } from "./http.ts";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "projintel.js");
const CLIENT_INFO = { name: "projintel-test", version: "0" };

export interface StdioMcp {
  client: Client;
  /** What the server wrote to stderr (its logs). */
  stderr(): string;
  close(): Promise<void>;
}

/** `node bin/projintel.js mcp --state-dir <stateDir> [...args]` as an MCP client spawns it. */
export async function connectStdio(stateDir: string, args: readonly string[] = []): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--state-dir", stateDir, ...args],
    stderr: "pipe",
  });
  let logs = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    logs += chunk.toString("utf8");
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, stderr: () => logs, close: () => client.close() };
}

export interface SeenResponse {
  method: string;
  status: number;
  headers: Headers;
  /** The body as text, read from a clone (the client reads the original). */
  body: Promise<string>;
}

export interface HttpMcp {
  client: Client;
  /** Every HTTP response the client received, in order. */
  responses: SeenResponse[];
  close(): Promise<void>;
}

/**
 * A client of `<baseUrl>/mcp`, with extra request headers (an Authorization key); the responses are recorded into
 * `responses` (pass one to see them when connecting fails).
 */
export async function connectHttp(
  baseUrl: string,
  headers: Record<string, string> = {},
  responses: SeenResponse[] = [],
): Promise<HttpMcp> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, baseUrl), {
    requestInit: { headers },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      responses.push({
        method: init?.method ?? "GET",
        status: res.status,
        headers: res.headers,
        body: res.clone().text(),
      });
      return res;
    },
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, responses, close: () => client.close() };
}
