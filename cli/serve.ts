// `projintel serve`: answer the API from the current release until interrupted — the state folder's, or a
// remote's (`--release s3://bucket/prefix`), so several shims behind a load balancer serve one release.
import type { Command } from "commander";
import { createContext, intFlag } from "./context.ts";
import { withStateFlags } from "./options.ts";
import { waitForSignal } from "./signals.ts";

export function registerServe(program: Command): void {
  withStateFlags(program.command("serve"))
    .description("Serve the API (quotas, X-RateLimit-* headers, sliced pages) from the current release.")
    .option("--port <n>", "port to listen on (env PROJINTEL_PORT, default 8787)")
    .option("--host <host>", "address to listen on (env PROJINTEL_HOST, default 127.0.0.1)")
    .option(
      "--release <location>",
      "where releases are read: s3://bucket/prefix or a folder, as `publish --target` wrote them (env PROJINTEL_REMOTE; default the state folder)",
    )
    .addHelpText(
      "after",
      `
Serving from a bucket, the shim reads releases/current.json (re-read every PROJINTEL_RELEASE__CHECK_EVERY_MS,
default 10000), keeps at most PROJINTEL_RELEASE__CACHE_BYTES of pages in memory (default 256 MiB), and downloads
each night's public database (public-db/<run_date>.duckdb, and the history parts it reads that the shim lacks) into
<state-dir>/public/ before its release goes live.
Endpoint, region and credentials come from AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY.
Several shims: PROJINTEL_QUOTA__STORE=redis (quotas and keys in Redis) and the same PROJINTEL_SERVER_SECRET on each.
Examples:
  projintel serve
  projintel serve --release s3://projintel-public/prod --port 8080`,
    )
    .action(async (flags) => {
      const port = intFlag("port", flags.port, 0, 65_535);
      const { config, logger } = createContext(flags, {
        ...(port === undefined ? {} : { port }),
        ...(flags.host ? { host: flags.host } : {}),
      });
      const { startServer } = await import("../api-shim/server.ts");
      const server = await startServer({
        config,
        logger,
        warmQueryWorkers: true,
        ...(flags.release ? { releaseLocation: flags.release } : {}),
      });
      process.stdout.write(`API listening on ${server.url}\n`);
      await waitForSignal();
      await server.close();
    });
}
