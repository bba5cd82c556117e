// MCP's Streamable HTTP transport on the shim at /mcp, stateless: every POST carries one JSON-RPC message and is
// answered by a protocol server made for it (no session, so any shim behind a load balancer can answer any request),
// as JSON (no SSE). GET (a server-to-client stream) and DELETE (ending a session) are 405, as the transport's spec
// allows a server without either. /mcp passes the app's caller hook like every route: one HTTP request counts one
// against the caller's daily quota (a tools/call is one, as are initialize and tools/list), a bad key is 401 and an
// exhausted quota 429 in the envelope (as are a body that is not one JSON object), and every answer carries the
// X-RateLimit-* headers. Past those checks the protocol's own refusals (a message that is not JSON-RPC, an Accept
// header without text/event-stream) are the SDK transport's JSON-RPC errors, as MCP clients expect.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "../../core/log.ts";
import { rateLimitHeaders } from "../caller.ts";
import { ApiError } from "../errors.ts";
import { acceptJsonBodies, queryCaller } from "../http/json-body.ts";
import { MAX_QUERY_BODY_BYTES } from "../query/route.ts";
import { createMcpServer } from "./server.ts";
import { createTools, type ToolSources } from "./tools.ts";

export const MCP_PATH = "/mcp";
/** Largest message: the longest run_query body with its JSON-RPC wrapping. */
const MAX_MCP_BODY_BYTES = MAX_QUERY_BODY_BYTES + 4096;
export const MCP_ALLOW = "POST";

export function registerMcpRoute(app: FastifyInstance, sources: ToolSources & { logger: Logger }): void {
  const tools = createTools(sources);
  app.register(async (scope) => {
    acceptJsonBodies(scope, MAX_MCP_BODY_BYTES);
    scope.post(MCP_PATH, { bodyLimit: MAX_MCP_BODY_BYTES }, async (request, reply) => {
      const message = request.body;
      if (message === undefined || typeof message !== "object" || message === null) {
        throw new ApiError("invalid_body", "The request body must be one JSON-RPC message (an object).");
      }
      if (Array.isArray(message)) {
        // a batch would be many calls for one counted request
        throw new ApiError(
          "invalid_body",
          "Send one JSON-RPC message per request; batches are not accepted (each request counts once against the quota).",
        );
      }
      const server = createMcpServer({
        tools,
        caller: { ...queryCaller(request), gone: () => request.raw.socket.destroyed },
        requestId: () => request.id,
        logger: sources.logger,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(webRequest(request), { parsedBody: message });
        const text = await response.text();
        reply.code(response.status);
        response.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        if (request.quota) reply.headers(rateLimitHeaders(request.quota));
        reply.header("cache-control", "no-store");
        return reply.send(text === "" ? undefined : text);
      } finally {
        await server.close();
      }
    });
    scope.route({
      method: ["GET", "DELETE", "PUT", "PATCH"],
      url: MCP_PATH,
      handler: async (request) => {
        throw new ApiError(
          "method_not_allowed",
          `${request.method} is not allowed on ${MCP_PATH}: this MCP endpoint is stateless (no event stream, no session to end); POST one JSON-RPC message per request.`,
          { allow: MCP_ALLOW },
        );
      },
    });
  });
}

/** The request as the SDK's transport reads it: method and headers (the body is already parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return new Request(`http://localhost${MCP_PATH}`, { method: request.method, headers });
}
