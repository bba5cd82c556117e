// Every simulated source under its path prefix (docs/contracts.md): the handlers built over one world,
// one clock and the shared budgets, with counters for /_sim/stats.

import type { FeedFormat } from "./arxiv/feed.ts";
import { createArxivHandler } from "./arxiv/handler.ts";
import { createDockerHubHandler } from "./dockerhub/handler.ts";
import { createGraphqlHandler } from "./github/graphql-handler.ts";
import type { RateLimiter } from "./github/rate-limit.ts";
import type { RestBudget } from "./github/rest-budget.ts";
import { createRestHandler } from "./github/rest-handler.ts";
import { createHnHandler } from "./hn/handler.ts";
import { jsonReply, NOT_FOUND, type SourceHandler } from "./http/reply.ts";
import { createHuggingFaceHandler } from "./huggingface/handler.ts";
import { createNpmHandlers } from "./npm/handlers.ts";
import { createPypiHandlers } from "./pypi/handlers.ts";
import type { World } from "./world.ts";

export const SOURCES = [
  "github",
  "pypi",
  "pypistats",
  "npm",
  "npm-downloads",
  "dockerhub",
  "huggingface",
  "hn",
  "arxiv",
] as const;
export type Source = (typeof SOURCES)[number];

export interface SourceStats {
  graphql_points: number;
  rest: { core: number; search: number };
}

export interface SourceContext {
  world: World;
  now(): number;
  graphqlLimiter: RateLimiter;
  restBudget: RestBudget;
  stats: SourceStats;
  /** arXiv feed format; by default the old one before 2026-03-01, the new backend from then on. */
  arxivFeed?: FeedFormat;
}

export function createSources(ctx: SourceContext): Record<Source, SourceHandler> {
  const { world, now } = ctx;
  const graphql = createGraphqlHandler({
    world,
    now,
    limiter: ctx.graphqlLimiter,
    onCharge: (points) => {
      ctx.stats.graphql_points += points;
    },
  });
  const rest = createRestHandler({
    world,
    now,
    budget: ctx.restBudget,
    graphql: ctx.graphqlLimiter,
    onCharge: (resource) => {
      ctx.stats.rest[resource] += 1;
    },
  });
  const pypi = createPypiHandlers({ world, now });
  const npm = createNpmHandlers(world, now);
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

  return {
    github: (req) => {
      if (req.path === "/graphql") {
        if (req.method !== "POST")
          return jsonReply(404, {
            message: "Not Found",
            documentation_url: "https://docs.github.com/graphql",
          });
        if (req.body === undefined) return jsonReply(413, { message: "Request body too large" });
        return graphql(header(req.headers.authorization), req.body);
      }
      return rest(req);
    },
    pypi: (req) => {
      const project = /^\/pypi\/([^/]+)\/json\/?$/.exec(req.path);
      if (!project || (req.method !== "GET" && req.method !== "HEAD")) return NOT_FOUND;
      return pypi.project(decodeURIComponent(project[1] as string), header(req.headers["if-none-match"]));
    },
    pypistats: (req) => {
      const recent = /^\/api\/packages\/([^/]+)\/recent\/?$/.exec(req.path);
      if (!recent || req.method !== "GET") return NOT_FOUND;
      return pypi.recent(decodeURIComponent(recent[1] as string), req.params.get("period"));
    },
    npm: npm.registry,
    "npm-downloads": npm.downloads,
    dockerhub: createDockerHubHandler(world, now),
    huggingface: createHuggingFaceHandler(world, now),
    hn: createHnHandler(world, now),
    arxiv: createArxivHandler(world, now, ctx.arxivFeed),
  };
}
