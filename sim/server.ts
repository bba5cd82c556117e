// One local HTTP server for every simulated source, under path prefixes (docs/contracts.md, sources.ts),
// with injected faults (faults.ts) and the /_sim control endpoints (clock, advance, stats, faults).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Logger, silentLogger } from "../core/log.ts";
import { createClock, type SimClock } from "./clock.ts";
import { createFaults, type FaultOptions, faultReply, malform, validateFaults } from "./faults.ts";
import { createRateLimiter } from "./github/rate-limit.ts";
import { createRestBudget, type RestBudgetOptions } from "./github/rest-budget.ts";
import { type HttpReply, jsonReply, NOT_FOUND } from "./http/reply.ts";
import { createSimStats } from "./sim-stats.ts";
import { createSources, SOURCES, type Source } from "./sources.ts";
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
  /** GitHub REST budgets and secondary limits (defaults as on GitHub). */
  rest?: Omit<RestBudgetOptions, "now">;
  /** Shares of repositories renamed / deleted within 180 days after the anchor. */
  renameShare?: number;
  deleteShare?: number;
  /** Injected faults (default none); change them at run time with POST /_sim/faults. */
  faults?: FaultOptions;
  /** arXiv feed format (default: by sim date, the 2026 new backend from 2026-03-01). */
  arxivFeed?: "old" | "new";
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
    renameShare: options.renameShare,
    deleteShare: options.deleteShare,
  });
  const clock = createClock(options.date);
  logger.debug("sim world generated", { repos: world.size, ms: Math.round(performance.now() - started) });
  const initialFaults = validateFaults(options.faults ?? { rate: 0 });
  if (typeof initialFaults === "string") throw new Error(`Sim option ${initialFaults}`);
  const faults = createFaults(initialFaults);
  const stats = createSimStats();
  const restBudget = createRestBudget({ ...options.rest, now: options.wallClock });
  const graphqlLimiter = createRateLimiter({
    pointsPerHour: options.graphqlPointsPerHour,
    now: options.wallClock,
  });
  const sources = createSources({
    world,
    now: clock.now,
    graphqlLimiter,
    restBudget,
    stats: stats.points,
    arxivFeed: options.arxivFeed,
  });

  const control = async (request: IncomingMessage, url: URL): Promise<HttpReply> => {
    const method = request.method ?? "GET";
    if (url.pathname === "/_sim/clock" && method === "GET") return jsonReply(200, { date: clock.date() });
    if (url.pathname === "/_sim/stats" && method === "GET") return jsonReply(200, stats.view());
    if (url.pathname === "/_sim/faults") {
      if (method === "GET") return jsonReply(200, faults.settings());
      if (method !== "POST")
        return jsonReply(405, { error: "method_not_allowed", message: "Use GET or POST /_sim/faults." });
      let parsed: unknown;
      try {
        parsed = JSON.parse((await readBody(request)) ?? "");
      } catch {
        return jsonReply(400, {
          error: "invalid_json",
          message: "POST /_sim/faults takes a JSON object {rate, kinds, seed, holdMs}.",
        });
      }
      const settings = validateFaults(parsed);
      if (typeof settings === "string")
        return jsonReply(400, { error: "invalid_parameter", message: settings });
      faults.configure(settings);
      logger.info("sim faults configured", { ...settings });
      return jsonReply(200, settings);
    }
    if (url.pathname === "/_sim/advance") {
      if (method !== "POST")
        return jsonReply(405, { error: "method_not_allowed", message: "Use POST /_sim/advance?days=N." });
      const days = url.searchParams.get("days") ?? "";
      if (!/^\d{1,4}$/.test(days) || Number(days) < 1 || Number(days) > 3650)
        return jsonReply(400, {
          error: "invalid_parameter",
          parameter: "days",
          message: "days must be an integer from 1 to 3650.",
        });
      clock.advance(Number(days));
      // A simulated day is a real day too: GitHub's hourly budgets and per-minute limits start afresh, so
      // replayed nights a few seconds apart are not throttled as if they ran in the same minute.
      graphqlLimiter.clear();
      restBudget.clear();
      logger.info("sim clock advanced", { date: clock.date(), days: Number(days) });
      return jsonReply(200, { date: clock.date() });
    }
    return NOT_FOUND;
  };

  const route = async (request: IncomingMessage): Promise<HttpReply> => {
    const url = new URL(request.url ?? "/", "http://sim.invalid");
    if (url.pathname.startsWith("/_sim/")) return control(request, url);
    const source = SOURCES.find((name) => url.pathname.startsWith(`/${name}/`)) as Source | undefined;
    if (!source) return NOT_FOUND;
    stats.request(source);
    const target = url.pathname + url.search;
    const fault = faults.decide(target);
    if (fault && fault !== "malformed") {
      stats.fault(source, fault);
      return faultReply(fault, source, target, faults.settings());
    }
    const method = request.method ?? "GET";
    const host = request.headers.host ?? "127.0.0.1";
    const reply = sources[source]({
      method,
      path: url.pathname.slice(source.length + 1),
      params: url.searchParams,
      headers: request.headers,
      base: `http://${host}/${source}`,
      body: method === "POST" ? await readBody(request) : undefined,
    });
    if (fault !== "malformed" || reply.status !== 200) return reply;
    stats.fault(source, fault);
    return malform(reply, target, faults.settings());
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // GitHub's secondary limit counts a token's requests in flight, from arrival until the answer is sent.
    if (request.url?.startsWith("/github/")) {
      const token = /^(?:bearer|token)\s+(\S+)/i.exec(request.headers.authorization ?? "")?.[1];
      restBudget.begin(token);
      response.once("close", () => restBudget.end(token));
    }
    route(request)
      .catch((error: unknown) => {
        logger.error("sim request failed", { url: request.url, error: String(error) });
        return jsonReply(500, { message: "Internal simulator error" });
      })
      .then((reply) => {
        if (reply.holdMs !== undefined) {
          // The timeout fault: say nothing, then drop the connection.
          setTimeout(() => request.socket.destroy(), reply.holdMs).unref();
          return;
        }
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
