// `projintel mcp`: the MCP server over stdio, for an AI client to spawn — the same tools as the shim's /mcp over the
// release in the state folder, the remote, or --release. Nothing but the protocol is written to stdout.
import type { Command } from "commander";
import { createContext } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { waitForSignal } from "./signals.ts";

export function registerMcp(program: Command): void {
  withStateFlags(program.command("mcp"))
    .description(
      "Serve the MCP tools (the API's read endpoints and its SQL query, made from the route table) over stdio from the current release.",
    )
    .option(
      "--release <location>",
      "where releases are read, as for serve: s3://bucket/prefix or a folder, as `publish --target` wrote them (env PROJINTEL_REMOTE; default the state folder)",
    )
    .addHelpText(
      "after",
      `
An MCP client starts it and speaks JSON-RPC on stdin/stdout; logs are JSON lines on stderr. Client config:
  {"mcpServers": {"projintel": {"command": "node", "args": ["<checkout>/bin/projintel.js", "mcp", "--state-dir", "<checkout>/var"]}}}
The same tools are served over Streamable HTTP at /mcp by \`projintel serve\` (keys and quotas apply there).`,
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const { serveMcpOverStdio } = await import("../api-shim/mcp/stdio.ts");
      await serveMcpOverStdio({ config, logger, location: flags.release, stop: waitForSignal() });
    });
}
