// MCP tool-call latency over both transports against one release: the SDK's Client calling get_project (the top
// project's detail, 90 nights of history) and search_projects (a name search) `calls` times in a row, through
// `projintel mcp` over stdio and through a shim process's /mcp over Streamable HTTP; beside them the same tools/call
// POSTed as bare JSON-RPC with fetch (the server's share of the HTTP figure, without the SDK client's) and the REST GET
// of the same answer. p50 and p99 of each run, medians of `runs` runs.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { MCP_PATH } from "../api-shim/mcp/http.ts";
import { connectHttp, connectStdio } from "../api-shim/mcp/testing.ts";
import { median } from "./measure.ts";
import { percentile } from "./query.ts";
import { serveArgs, startChild } from "./shim.ts";

const SEARCH = { q: "rag", limit: 20 };

interface Case {
  tool: string;
  args: Record<string, unknown>;
  rest: string;
}

type Timed = () => Promise<unknown>;

/** p50 and p99 of `calls` sequential calls, medians over `runs` runs (after one warm-up call). */
async function latency(call: Timed, calls: number, runs: number) {
  await call();
  const p50: number[] = [];
  const p99: number[] = [];
  for (let run = 0; run < runs; run++) {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    p50.push(percentile(times, 50));
    p99.push(percentile(times, 99));
  }
  return { p50_ms: median(p50), p99_ms: median(p99), runs_p50_ms: p50 };
}

/** One tools/call as a bare JSON-RPC POST (stateless: no session to set up), its answer read whole. */
function rawToolCall(url: string, c: Case): Timed {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: c.tool, arguments: c.args },
  });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
  };
  return async () => {
    const res = await fetch(`${url}${MCP_PATH}`, { method: "POST", headers, body });
    const answer = (await res.json()) as { result?: { isError?: boolean } };
    if (res.status !== 200 || !answer.result || answer.result.isError) {
      throw new Error(`${c.tool} over bare JSON-RPC failed: ${res.status}`);
    }
  };
}

function toolCall(client: Client, c: Case): Timed {
  return async () => {
    const result = await client.callTool({ name: c.tool, arguments: c.args });
    if (result.isError) throw new Error(`${c.tool} failed: ${JSON.stringify(result.content)}`);
  };
}

/** Needs a state folder holding a published release (the bench runner makes one). */
export async function benchMcp(stateDir: string, options: { calls?: number; runs?: number } = {}) {
  const calls = options.calls ?? 200;
  const runs = options.runs ?? 3;
  const shim = await startChild(serveArgs(stateDir), { PROJINTEL_QUOTA__ANONYMOUS: "1000000000" });
  const stdio = await connectStdio(stateDir, ["--log-level", "warn"]);
  const http = await connectHttp(shim.url);
  try {
    const top = (await (await fetch(`${shim.url}/api/v1/projects?limit=1`)).json()) as {
      data: { slug: string }[];
    };
    const slug = top.data[0]?.slug ?? "";
    const cases: Case[] = [
      { tool: "get_project", args: { slug }, rest: `/api/v1/projects/${slug}` },
      { tool: "search_projects", args: SEARCH, rest: `/api/v1/projects?q=${SEARCH.q}&limit=${SEARCH.limit}` },
    ];
    const out: Record<string, unknown> = { calls_per_run: calls, runs, project: slug };
    for (const c of cases) {
      out[c.tool] = {
        stdio: await latency(toolCall(stdio.client, c), calls, runs),
        http: await latency(toolCall(http.client, c), calls, runs),
        http_bare_json_rpc: await latency(rawToolCall(shim.url, c), calls, runs),
        rest_get: await latency(
          async () => {
            const res = await fetch(shim.url + c.rest);
            if (res.status !== 200) throw new Error(`${c.rest} answered ${res.status}`);
            await res.arrayBuffer();
          },
          calls,
          runs,
        ),
      };
    }
    return out;
  } finally {
    await Promise.all([stdio.close(), http.close()]);
    shim.child.kill("SIGTERM");
  }
}
