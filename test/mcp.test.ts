// The MCP server driven by the SDK's own Client over both transports — `projintel mcp` spawned over stdio, and the
// shim's /mcp over Streamable HTTP on loopback — against the simulated release: the exact tool list, every tool's
// answer equal to its REST endpoint's for the same release (same records, counts and meta), bad arguments as tool
// errors with the API's code and message, run_query refusing what POST /query refuses; over HTTP, quota headers on
// every answer, one count per request, 401 for a bad key and 429 past the quota, in the envelope.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange } from "../api-shim/http/raw-http.testing.ts";
import {
  connectHttp,
  connectStdio,
  type HttpMcp,
  type SeenResponse,
  type StdioMcp,
} from "../api-shim/mcp/testing.ts";
import { createQueryPool } from "../api-shim/query/pool.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { type RunningServer, startServer } from "../api-shim/server.ts";
import { nestedStructSql } from "../core/query/testing.ts";
import { ROUTES } from "../publish/routes/index.ts";
import { MCP_TOOLS_BEGIN, MCP_TOOLS_END, mcpToolsMarkdown } from "../publish/routes-markdown.ts";
import { type SimRelease, simRelease } from "./sim-release.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The tools, in the route table's order (publish/routes/index.ts). */
const TOOLS = [
  "list_quality",
  "list_trending",
  "list_transitions",
  "search_projects",
  "compare_projects",
  "get_project",
  "get_tables",
  "run_query",
  "get_methodology",
];
const TOP_SQL = "SELECT full_name, stars, quality_score FROM projects ORDER BY stars DESC, full_name LIMIT 5";

let release: SimRelease;
let server: RunningServer;
let stdio: StdioMcp;
let http: HttpMcp;
/** The release's top project (canonical order), found through REST. */
let top: { slug: string; domain: string; full_name: string };
/** The next one. */
let second: { slug: string };

// biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON it asked for
type Json = any;

async function rest(path: string, init?: RequestInit): Promise<{ status: number; body: Json }> {
  const res = await fetch(server.url + path, init);
  return { status: res.status, body: await res.json() };
}

const postQuery = (sql: string) =>
  rest("/api/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql }),
  });

beforeAll(async () => {
  release = await simRelease();
  const queryPool = createQueryPool({ limits: { threadsPerWorker: 1 } });
  server = await startServer({ config: { ...release.config, host: "127.0.0.1" }, queryPool });
  [stdio, http] = await Promise.all([connectStdio(release.stateDir), connectHttp(server.url)]);
  const projects = await rest("/api/v1/projects?limit=2");
  [top, second] = projects.body.data;
}, 600_000);

afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await server?.close();
  await release?.cleanup();
});

/** The meta of an envelope without the one field made per response. */
function stable(meta: Json): Json {
  const { timestamp, elapsed_ms, ...rest } = meta;
  return rest;
}

describe.each([
  ["stdio", () => stdio.client],
  ["Streamable HTTP", () => http.client],
])("MCP over %s", (_transport, client) => {
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client().callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent: Json;
      content: { type: string; text: string }[];
    };

  it("lists the tools made from the route table, each with an object input schema", async () => {
    const { tools } = await client().listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    const quality = tools.find((t) => t.name === "list_quality");
    expect(quality?.inputSchema.required).toEqual(["domain"]);
    expect(quality?.inputSchema.properties?.limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 500,
    });
    expect(quality?.annotations?.readOnlyHint).toBe(true);
    const project = tools.find((t) => t.name === "get_project");
    expect(Object.keys(project?.inputSchema.properties ?? {})).toEqual(["slug"]);
    expect(tools.find((t) => t.name === "run_query")?.inputSchema.required).toEqual(["sql"]);
    // the server's instructions to the model name every tool, and no other
    const named =
      client()
        .getInstructions()
        ?.match(/\b[a-z]+_[a-z_]+\b/g) ?? [];
    expect(new Set(named)).toEqual(new Set(TOOLS));
  });

  it("answers every read tool with its REST endpoint's envelope", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["search_projects", { q: "a", limit: 7, offset: 2 }, "/api/v1/projects?q=a&limit=7&offset=2"],
      ["get_project", { slug: top.full_name }, `/api/v1/projects/${encodeURIComponent(top.full_name)}`],
      ["list_quality", { domain: top.domain, limit: 10 }, `/api/v1/quality?domain=${top.domain}&limit=10`],
      ["list_trending", { window: "30d", limit: 10 }, "/api/v1/trending?window=30d&limit=10"],
      ["list_transitions", { days: 90 }, "/api/v1/transitions?days=90"],
      ["get_tables", {}, "/api/v1/tables"],
      ["get_methodology", {}, "/api/v1/methodology"],
      [
        "compare_projects",
        { projects: `${second.slug},${top.full_name}` },
        `/api/v1/compare?projects=${second.slug},${encodeURIComponent(top.full_name)}`,
      ],
    ];
    for (const [name, args, path] of cases) {
      const answer = await call(name, args);
      const expected = await rest(path);
      expect([answer.isError ?? false, expected.status], name).toEqual([false, 200]);
      expect(answer.structuredContent.data, name).toEqual(expected.body.data);
      const data = expected.body.data;
      expect(
        Array.isArray(data) ? data.length : Object.keys(data).length,
        `${name} has data`,
      ).toBeGreaterThan(0);
      expect(stable(answer.structuredContent.meta), name).toEqual(stable(expected.body.meta));
      expect(JSON.parse(answer.content[0]?.text ?? ""), name).toEqual(answer.structuredContent);
    }
  });

  it("finds real records: the top project's detail explains its score, lists are full pages", async () => {
    const detail = (await call("get_project", { slug: top.slug })).structuredContent.data;
    expect([detail.slug, detail.full_name, detail.domain]).toEqual([top.slug, top.full_name, top.domain]);
    expect(Object.keys(detail.score_explanation).length).toBeGreaterThan(0);
    const quality = (await call("list_quality", { domain: top.domain, limit: 10 })).structuredContent;
    expect(quality.data[0].full_name).toBe(top.full_name);
    expect(quality.meta.count).toBe(Math.min(10, quality.meta.total));
    const search = (await call("search_projects", { q: "a", limit: 7, offset: 2 })).structuredContent;
    expect([search.meta.count, search.meta.next_offset]).toEqual([7, 9]);
    const trending = (await call("list_trending", { window: "30d", limit: 10 })).structuredContent;
    expect(trending.data.map((r: Json) => r.rank)).toEqual([...trending.data.keys()].map((i) => i + 1));
  });

  it("runs run_query in POST /query's sandbox, with its answer", async () => {
    const answer = await call("run_query", { sql: TOP_SQL });
    const expected = await postQuery(TOP_SQL);
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent.data).toEqual(expected.body.data);
    expect(answer.structuredContent.data.rows).toHaveLength(5);
    expect(stable(answer.structuredContent.meta)).toEqual(stable(expected.body.meta));
  });

  it("cuts run_query's answer at the byte cap as MCP sends it: the answer twice, as text and structured content", async () => {
    // 150,000 euro signs are 450,000 bytes: POST /query answers two rows of the three; run_query one, which it sends
    // twice (900,000 bytes), the second would pass the 1,000,000-byte cap
    const sql = "SELECT repeat('€', 150000) AS s FROM range(3)";
    const answer = await call("run_query", { sql });
    const expected = await postQuery(sql);
    expect([expected.body.meta.count, expected.body.meta.truncated]).toEqual([2, true]);
    expect([answer.structuredContent.meta.count, answer.structuredContent.meta.truncated]).toEqual([1, true]);
    expect(answer.structuredContent.data.rows).toEqual(expected.body.data.rows.slice(0, 1));
    expect(JSON.parse(answer.content[0]?.text ?? "")).toEqual(answer.structuredContent);
  });

  it("refuses what POST /query refuses: a write, a file read, a settings view, an answer whose types are too big", async () => {
    // a 1.3-MB type with no row: run_query counts it as MCP sends it, twice (as text and structured content)
    const typesTooBig = nestedStructSql(8, 5_000);
    const bytesAsSent: Record<string, [string, string]> = {
      [typesTooBig]: ["1,290,754", "2,584,580"],
    };
    for (const sql of [
      "DELETE FROM projects",
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM pg_settings",
      typesTooBig,
    ]) {
      const answer = await call("run_query", { sql });
      const expected = await postQuery(sql);
      expect(expected.status, sql).toBe(400);
      expect(answer.isError, sql).toBe(true);
      const { request_id, ...error } = answer.structuredContent.detail.error;
      const { request_id: _, ...refused } = expected.body.detail.error;
      const [rest, mcp] = bytesAsSent[sql] ?? ["", ""];
      const message = refused.message.replace(rest, mcp);
      expect(refused.message.includes(rest), sql).toBe(true);
      expect(error, sql).toEqual({ ...refused, message });
      expect(answer.content[0]?.text, sql).toBe(`${refused.code}: ${message}`);
    }
  });

  it("answers bad arguments with a tool error carrying the API's code and message", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["list_quality", { domain: "nope" }, "/api/v1/quality?domain=nope"],
      ["list_quality", {}, "/api/v1/quality"],
      ["list_trending", { limit: 500 }, "/api/v1/trending?limit=500"],
      ["list_trending", { window: "1y" }, "/api/v1/trending?window=1y"],
      ["search_projects", { q: "a", limt: 5 }, "/api/v1/projects?q=a&limt=5"],
      ["list_transitions", { days: 2.5 }, "/api/v1/transitions?days=2.5"],
      ["get_project", { slug: "no-such--project" }, "/api/v1/projects/no-such--project"],
      ["run_query", { sql: "SELECT 1", params: [[1]] }, ""],
    ];
    for (const [name, args, path] of cases) {
      const answer = await call(name, args);
      expect(answer.isError, name).toBe(true);
      const error = answer.structuredContent.detail.error;
      expect(error.request_id, name).toEqual(expect.any(String));
      if (path === "") {
        expect(error.code).toBe("invalid_body");
        continue;
      }
      const expected = (await rest(path)).body.detail.error;
      expect([error.code, error.message], name).toEqual([expected.code, expected.message]);
    }
    const listed = (await call("list_trending", { domain: ["rag"] })).structuredContent.detail.error;
    expect([listed.code, listed.message]).toEqual([
      "invalid_parameter",
      "domain must be one value (text, a number or a boolean), not a list.",
    ]);
    const domain = (await call("list_quality", { domain: "nope" })).structuredContent.detail.error;
    expect(domain.code).toBe("invalid_domain");
    expect(domain.message).toContain("one of: mcp, agents, rag,");
  });

  it("answers an unknown tool with a protocol error naming the tools", async () => {
    const refused = await client()
      .callTool({ name: "drop_tables", arguments: {} })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32602);
    expect((refused as McpError).message).toContain(`the tools are ${TOOLS.join(", ")}`);
  });
});

describe("docs/api.md's MCP section", () => {
  it("lists the tools there are", async () => {
    const readme = await readFile(path.join(ROOT, "docs", "api.md"), "utf8");
    const section = readme.slice(readme.indexOf("### MCP server"), readme.indexOf("### Documents"));
    expect([...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1])).toEqual(TOOLS);
    // the table is the one generated from the route table's mcp fields
    expect(section).toContain(`${MCP_TOOLS_BEGIN}\n${mcpToolsMarkdown(ROUTES)}\n${MCP_TOOLS_END}`);
  });
});

describe("projintel mcp (stdio)", () => {
  it("writes only the protocol on stdout, its logs on stderr", () => {
    const lines = stdio
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.find((l) => l.msg === "mcp server on stdio")).toMatchObject({
      location: release.stateDir,
      tools: TOOLS,
    });
  });
});

describe("/mcp on the shim", () => {
  it("carries X-RateLimit-* on every answer and counts one per HTTP request", async () => {
    const seen = http.responses.length;
    await http.client.callTool({ name: "get_methodology", arguments: {} });
    await http.client.callTool({ name: "list_trending", arguments: {} });
    const [first, second] = http.responses.slice(seen);
    expect([first?.status, second?.status]).toEqual([200, 200]);
    expect(first?.headers.get("x-ratelimit-limit")).toBe("1000000");
    const remaining = (r?: SeenResponse) => Number(r?.headers.get("x-ratelimit-remaining"));
    expect(remaining(first) - remaining(second)).toBe(1);
    expect(first?.headers.get("cache-control")).toBe("no-store");
    expect(http.responses.every((r) => r.headers.get("x-ratelimit-remaining") !== null)).toBe(true);
  });

  it("sends run_query answers within the 1,000,000-byte cap, however much escaping the text form adds (issue 35, item 11)", async () => {
    const sent = async (sql: string) => {
      const seen = http.responses.length;
      const answer = (await http.client.callTool({ name: "run_query", arguments: { sql } })) as {
        structuredContent: Json;
      };
      const body = (await http.responses[seen]?.body) ?? "";
      return {
        bytes: Buffer.byteLength(body),
        meta: answer.structuredContent.meta,
        rows: answer.structuredContent.data.rows,
      };
    };
    // a backslash is 2 bytes in JSON and 4 in the text form: POST /query sends this row (998,000 bytes of it), MCP
    // sent it twice, 2.99 MB in all; now no row fits, and the answer says so
    const backslashes = "SELECT repeat('\\', 499000) AS s";
    const rest = await postQuery(backslashes);
    expect([rest.body.meta.count, rest.body.meta.truncated]).toEqual([1, false]);
    const alone = await sent(backslashes);
    expect(alone.bytes).toBeLessThanOrEqual(1_000_000);
    expect([alone.meta.count, alone.meta.truncated, alone.rows]).toEqual([0, true, []]);
    // rows of 100,000 backslashes: POST /query sends 4 of 10, MCP 1, each 600,006 bytes as sent
    const many = "SELECT repeat('\\', 100000) AS s FROM range(10)";
    expect((await postQuery(many)).body.meta.count).toBe(4);
    const cut = await sent(many);
    expect(cut.bytes).toBeLessThanOrEqual(1_000_000);
    expect(cut.bytes).toBeGreaterThan(600_000);
    expect([cut.meta.count, cut.meta.truncated, cut.rows[0]?.[0]]).toEqual([1, true, "\\".repeat(100_000)]);
  });

  it("is stateless: GET and DELETE are 405 with Allow: POST (and any other method, as on REST paths), a batch is refused", async () => {
    for (const method of ["GET", "DELETE", "PROPFIND"]) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      const body = (await res.json()) as Json;
      expect([res.status, res.headers.get("allow"), body.detail.error.code], method).toEqual([
        405,
        "POST",
        "method_not_allowed",
      ]);
      expect(res.headers.get("x-ratelimit-limit")).toBe("1000000");
    }
    // TRACE, which fetch will not send, over a raw socket
    const trace = await exchange(
      Number(new URL(server.url).port),
      "TRACE /mcp HTTP/1.1\r\nHost: shim\r\nConnection: close\r\n\r\n",
    );
    expect([trace.responses[0]?.status, trace.responses[0]?.headers.allow]).toEqual([405, "POST"]);
    const batch = await rest("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]),
    });
    expect([batch.status, batch.body.detail.error.code]).toEqual([422, "invalid_body"]);
    // past the shim's own checks, the protocol's refusals are JSON-RPC errors, still with the quota headers
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ hello: 1 }),
    });
    expect([res.status, ((await res.json()) as Json).error.code]).toEqual([400, -32700]);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000000");
  });

  it("is named in the AI plugin manifest", async () => {
    const manifest = (await rest("/.well-known/ai-plugin.json")).body;
    expect(manifest.description_for_model).toMatch(/MCP tools at http\S+\/mcp \(Streamable HTTP\)\.$/);
  });

  it("takes API keys: a key's quota counts its calls, a bad key is 401 in the envelope", async () => {
    const created = await rest("/api/v1/keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const keyed = await connectHttp(server.url, { authorization: `Bearer ${created.body.data.key}` });
    try {
      await keyed.client.callTool({ name: "get_tables", arguments: {} });
      const last = keyed.responses.at(-1);
      expect(last?.headers.get("x-ratelimit-limit")).toBe(String(created.body.data.daily_limit));
      // initialize, the initialized notification, the client's probe for an event stream (405), the call
      expect(last?.headers.get("x-ratelimit-remaining")).toBe(String(created.body.data.daily_limit - 4));
    } finally {
      await keyed.close();
    }
    const responses: SeenResponse[] = [];
    const refused = await connectHttp(server.url, { authorization: "Bearer pis_nope" }, responses).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(responses[0]?.status).toBe(401);
    expect(JSON.parse((await responses[0]?.body) ?? "").detail.error.code).toBe("invalid_api_key");
  });

  it("answers 429 in the envelope once the daily quota is used up", async () => {
    // a second shim over the same release, its counts in memory
    const limited = await startServer({
      config: { ...release.config, host: "127.0.0.1", quota: { ...release.config.quota, anonymous: 6 } },
      quotas: await openEmbeddedQuotaStore(),
    });
    try {
      const mcp = await connectHttp(limited.url);
      // 3 requests to connect, 3 calls: the quota of 6 is used up, the 7th request is refused
      for (let i = 0; i < 3; i++) await mcp.client.callTool({ name: "get_tables", arguments: {} });
      const refused = await mcp.client
        .callTool({ name: "get_tables", arguments: {} })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect(mcp.responses.map((r) => [r.status, r.headers.get("x-ratelimit-remaining")])).toEqual([
        [200, "5"],
        [202, "4"],
        [405, "3"],
        [200, "2"],
        [200, "1"],
        [200, "0"],
        [429, "0"],
      ]);
      const last = mcp.responses.at(-1);
      expect(last?.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(JSON.parse((await last?.body) ?? "").detail.error.code).toBe("rate_limit_exceeded");
      await mcp.close();
    } finally {
      await limited.close();
    }
  });
});
