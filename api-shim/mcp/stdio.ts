// The MCP server over stdio (`projintel mcp`): the tools over the release a location holds, opened as `projintel serve`
// opens it (the state folder, or a remote such as s3://bucket/prefix whose nights' public databases are downloaded for
// run_query), JSON-RPC on stdin and stdout and nothing else on stdout — logs go to the logger (stderr), query workers
// never inherit stdout. Runs until stdin ends or `stop` resolves; no quota is counted (the caller runs the process).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type Clock, systemClock } from "../../core/clock.ts";
import { type Config, statePaths } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import { createQueryPool } from "../query/pool.ts";
import { createTimestamp } from "../route-handler.ts";
import { openRelease } from "../server.ts";
import { createMcpServer } from "./server.ts";
import { createTools } from "./tools.ts";

/** The query pool's caller key of every stdio call: one client per process. */
const STDIO_CALLER = "stdio";

export interface StdioMcpOptions {
  config: Config;
  logger: Logger;
  /** Where the release is read from: `--release`, else config.remote, else the state folder. */
  location?: string | undefined;
  /** Resolves when the process is asked to stop (a signal). */
  stop: Promise<unknown>;
  clock?: Clock;
}

export async function serveMcpOverStdio(options: StdioMcpOptions): Promise<void> {
  const { config, logger } = options;
  const root = statePaths(config).root;
  const location = options.location ?? config.remote ?? root;
  const release = await openRelease({ config, releaseLocation: location }, logger);
  const pool = createQueryPool({ logger });
  const tools = createTools({
    release,
    timestamp: createTimestamp(options.clock ?? systemClock),
    query: { pool, stateRoot: root },
  });
  let sequence = 0;
  const server = createMcpServer({
    tools,
    caller: { key: STDIO_CALLER },
    requestId: () => `stdio-${++sequence}`,
    logger,
  });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  logger.info("mcp server on stdio", {
    location,
    release_id: release.current()?.release_id ?? null,
    tools: tools.map((t) => t.name),
  });
  try {
    await Promise.race([ended, options.stop]);
  } finally {
    await server.close();
    release.close();
    await pool.close();
    logger.info("mcp server stopped");
  }
}
