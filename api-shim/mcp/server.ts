// The MCP server over the tools of tools.ts, on the SDK's protocol Server: tools/list shows the tools generated from
// the route table, tools/call answers with the REST envelope as structuredContent and as text (run_query's cut to the
// byte cap as sent, answer-size.ts). A refusal is a tool error (isError) whose structuredContent is the API's error
// envelope, so an agent reads the same code and message (invalid_domain naming the allowed domains, not_found pointing
// to the search, …) a REST client would.
// Built on Server rather than McpServer because McpServer validates arguments itself and answers a bad value with its
// own "Input validation error" text: here the route's schemas validate, with the API's codes.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { type Logger, silentLogger } from "../../core/log.ts";
import { errorBody } from "../../schemas/index.ts";
import { toApiError } from "../errors.ts";
import { framingBytes, MAX_MCP_ANSWER_BYTES } from "./answer-size.ts";
import type { McpTool, ToolCaller } from "./tools.ts";

export const MCP_SERVER_INFO = { name: "projintel", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Project Intelligence Service: which open-source AI repositories are healthy, rising or fading. Find a project with search_projects, then get_project with its slug for the score explained input by input, or compare_projects with 2 to 5 slugs to set them side by side; list_quality ranks a domain, list_trending and list_transitions show movement; get_tables then run_query answer anything else in SQL; get_methodology explains the score.";

/**
 * The SDK's validator of elicitation schemas, which no tool here asks for: one for every server, since over HTTP a
 * server is made per request and building Ajv costs more than answering a call.
 */
let validator: AjvJsonSchemaValidator | undefined;

export interface McpServerOptions {
  tools: readonly McpTool[];
  caller: ToolCaller;
  /** The request id an error envelope carries (the HTTP request's, or one per call over stdio). */
  requestId: () => string;
  logger?: Logger;
}

/** A protocol server answering tools/list and tools/call; connect it to a transport. */
export function createMcpServer(options: McpServerOptions): Server {
  const { tools, caller, requestId } = options;
  const logger = options.logger ?? silentLogger;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const tool = byName.get(name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool ${JSON.stringify(name)}; the tools are ${[...byName.keys()].join(", ")}.`,
      );
    }
    try {
      const text = await tool.call(args, caller, MAX_MCP_ANSWER_BYTES - framingBytes(extra.requestId));
      return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
    } catch (error) {
      const api = toApiError(error);
      const id = requestId();
      if (api.status >= 500 && api.code !== "unavailable") {
        logger.error("mcp tool failed", { tool: name, request_id: id, error: String(error) });
      }
      return {
        isError: true,
        content: [{ type: "text", text: `${api.code}: ${api.message}` }],
        structuredContent: errorBody(api.code, api.message, id),
      };
    }
  });
  return server;
}
