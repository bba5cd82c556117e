// `projintel serve`: answer the API from the current release until interrupted.
import type { Command } from "commander";
import { createContext, intFlag } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { waitForSignal } from "./signals.ts";

export function registerServe(program: Command): void {
  withStateFlags(program.command("serve"))
    .description("Serve the API (quotas, X-RateLimit-* headers, sliced pages) from the current release.")
    .option("--port <n>", "port to listen on (env PROJINTEL_PORT, default 8787)")
    .option("--host <host>", "address to listen on (env PROJINTEL_HOST, default 127.0.0.1)")
    .action(async (flags) => {
      const port = intFlag("port", flags.port, 0, 65_535);
      const { config, logger } = createContext(flags, {
        ...(port === undefined ? {} : { port }),
        ...(flags.host ? { host: flags.host } : {}),
      });
      const { startServer } = await import("../api-shim/server.ts");
      const server = await startServer({ config, logger, warmQueryWorkers: true });
      process.stdout.write(`API listening on ${server.url}\n`);
      await waitForSignal();
      await server.close();
    });
}
