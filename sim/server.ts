// One local HTTP server for every simulated source, under path prefixes (docs/contracts.md):
// /github/graphql, /pypi/pypi/<name>/json, /pypistats/api/packages/<name>/recent, and /_sim control endpoints.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Logger, silentLogger } from "../pipeline/core/log.ts";
import { createClock, type SimClock } from "./clock.ts";
import { createGraphqlHandler, type HttpReply } from "./github/graphql-handler.ts";
import { createRateLimiter } from "./github/rate-limit.ts";
import { createPypiHandlers } from "./pypi/handlers.ts";
import { createWorld, type World } from "./world.ts";

export interface SimServerOptions {
  repos: number;
  seed: number;
  /** The sim clock's starting date, YYYY-MM-DD. */
  date: string;
  /** The date the world is built around (default: `date`); pass the first run's date to resume a world. */
  anchor?: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  logger?: Logger;
  /** GitHub GraphQL points per token per hour (default 5,000, as on GitHub). */
  graphqlPointsPerHour?: number;
  /** Wall clock for rate-limit windows, in milliseconds (tests pass a fake). */
  wallClock?: () => number;
}

export interface SimServer {
  url: string;
  world: World;
  clock: SimClock;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;
const SOURCES = ["github", "pypi", "pypistats"] as const;

function json(status: number, body: unknown): HttpReply {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

const NOT_FOUND = json(404, { message: "Not Found" });

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () =>
      resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")),
    );
    request.on("error", reject);
  });
}

export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const logger = options.logger ?? silentLogger;
  const started = performance.now();
  const world = createWorld({
    repos: options.repos,
    seed: options.seed,
    anchor: options.anchor ?? options.date,
  });
  const clock = createClock(options.date);
  logger.debug("sim world generated", { repos: world.size, ms: Math.round(performance.now() - started) });
  const stats = { requests: { github: 0, pypi: 0, pypistats: 0 }, graphql_points: 0 };
  const limiter = createRateLimiter({ pointsPerHour: options.graphqlPointsPerHour, now: options.wallClock });
  const graphql = createGraphqlHandler({
    world,
    now: clock.now,
    limiter,
    onCharge: (points) => {
      stats.graphql_points += points;
    },
  });
  const pypi = createPypiHandlers({ world, now: clock.now });

  const route = async (request: IncomingMessage): Promise<HttpReply> => {
    const url = new URL(request.url ?? "/", "http://sim.invalid");
    const path = url.pathname;
    const method = request.method ?? "GET";
    const source = SOURCES.find((name) => path.startsWith(`/${name}/`));
    if (source) stats.requests[source] += 1;
    if (path === "/github/graphql") {
      if (method !== "POST")
        return json(404, { message: "Not Found", documentation_url: "https://docs.github.com/graphql" });
      const body = await readBody(request);
      if (body === undefined) return json(413, { message: "Request body too large" });
      return graphql(request.headers.authorization, body);
    }
    if (source === "github")
      return json(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    const project = /^\/pypi\/pypi\/([^/]+)\/json\/?$/.exec(path);
    if (project && (method === "GET" || method === "HEAD")) {
      return pypi.project(decodeURIComponent(project[1] as string), request.headers["if-none-match"]);
    }
    const recent = /^\/pypistats\/api\/packages\/([^/]+)\/recent\/?$/.exec(path);
    if (recent && method === "GET")
      return pypi.recent(decodeURIComponent(recent[1] as string), url.searchParams.get("period"));
    if (path === "/_sim/clock" && method === "GET") return json(200, { date: clock.date() });
    if (path === "/_sim/stats" && method === "GET") return json(200, stats);
    if (path === "/_sim/advance") {
      if (method !== "POST")
        return json(405, { error: "method_not_allowed", message: "Use POST /_sim/advance?days=N." });
      const days = url.searchParams.get("days") ?? "";
      if (!/^\d{1,4}$/.test(days) || Number(days) < 1 || Number(days) > 3650) {
        return json(400, {
          error: "invalid_parameter",
          parameter: "days",
          message: "days must be an integer from 1 to 3650.",
        });
      }
      clock.advance(Number(days));
      logger.info("sim clock advanced", { date: clock.date(), days: Number(days) });
      return json(200, { date: clock.date() });
    }
    return NOT_FOUND;
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    route(request)
      .catch((error: unknown) => {
        logger.error("sim request failed", { url: request.url, error: String(error) });
        return json(500, { message: "Internal simulator error" });
      })
      .then((reply) => {
        response.writeHead(reply.status, reply.headers);
        response.end(request.method === "HEAD" ? undefined : reply.body);
      });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info("sim server listening", { url, repos: world.size, seed: world.seed, date: clock.date() });
  return {
    url,
    world,
    clock,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
