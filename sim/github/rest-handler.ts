// GET /github/... : GitHub's REST API over the world. Order of checks as on GitHub: credentials, secondary
// limit, primary budget (core or search), then the resource. ETags on 200s; a 304 is not charged.
// A former repository name answers 301 to /repositories/{id}; a deleted repository answers 404.
import { type HttpReply, jsonReply, linkHeader, pageParams, withEtag } from "../http/reply.ts";
import { exists } from "../metrics.ts";
import type { World } from "../world.ts";
import { userIdOf } from "./graphql-handler.ts";
import type { Budget, RateLimiter } from "./rate-limit.ts";
import { type Resource, type RestBudget, restRateHeaders } from "./rest-budget.ts";
import { repoJson } from "./rest-json.ts";
import { createRepoRouteState, DOCS, routeRepo } from "./rest-repo-routes.ts";
import { SEARCH_RESULT_CAP, searchRepositories } from "./search.ts";

export interface RestRequest {
  method: string;
  /** Path after /github, e.g. /repos/o/r/contributors. */
  path: string;
  params: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Absolute base of the REST API, e.g. http://127.0.0.1:1234/github. */
  base: string;
}

export interface RestHandlerOptions {
  world: World;
  now(): number;
  budget: RestBudget;
  /** The GraphQL limiter, for /rate_limit's graphql resource. */
  graphql: RateLimiter;
  onCharge?(resource: Resource): void;
}

const AUTHORIZATION = /^(?:bearer|token)\s+(\S+)\s*$/i;
const RATE_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api";
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function primaryLimitBody(token: string | undefined) {
  const who = token === undefined ? "127.0.0.1" : `user ID ${userIdOf(token)}`;
  return { message: `API rate limit exceeded for ${who}.`, documentation_url: RATE_DOCS };
}

export const SECONDARY_LIMIT_BODY = {
  documentation_url: `${RATE_DOCS}#about-secondary-rate-limits`,
  message:
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
};

const notFound = (docs: string) =>
  jsonReply(404, { message: "Not Found", documentation_url: docs, status: "404" });

export function createRestHandler(options: RestHandlerOptions) {
  const { world, budget } = options;
  const state = createRepoRouteState();

  const rateLimitBody = (token: string | undefined) => {
    const view = (b: Budget) => ({ limit: b.limit, used: b.used, remaining: b.remaining, reset: b.reset });
    const core = view(budget.peek(token, "core"));
    const graphql = view(options.graphql.peek(token ?? "anonymous"));
    return { resources: { core, search: view(budget.peek(token, "search")), graphql }, rate: core };
  };

  const route = (req: RestRequest, now: number, token: string | undefined): HttpReply => {
    if (req.path === "/rate_limit") return jsonReply(200, rateLimitBody(token));
    if (req.path === "/search/repositories") return search(req, now);
    const byName = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(req.path);
    const byId = /^\/repositories\/(\d{1,12})(\/.*)?$/.exec(req.path);
    let index: number | undefined;
    let sub = "";
    if (byName) {
      const found = world.resolveRepo(
        decodeURIComponent(byName[1] as string),
        decodeURIComponent(byName[2] as string),
        now,
      );
      sub = byName[3] ?? "";
      if (found?.renamed && now < world.deleteDay(found.index) && exists(world, found.index, now)) {
        const id = world.databaseId(found.index);
        const query = req.params.toString();
        const location = `${req.base}/repositories/${id}${sub}${query ? `?${query}` : ""}`;
        return jsonReply(
          301,
          {
            message: "Moved Permanently",
            url: location,
            documentation_url: "https://docs.github.com/v3/#http-redirects",
          },
          { location },
        );
      }
      index = found?.index;
    } else if (byId) {
      index = world.findDatabaseId(Number(byId[1]));
      sub = byId[2] ?? "";
    } else return notFound(DOCS);
    if (index === undefined || !exists(world, index, now) || now >= world.deleteDay(index))
      return notFound(`${DOCS}/repos/repos#get-a-repository`);
    return (
      routeRepo(
        {
          world,
          index,
          now,
          sub,
          params: req.params,
          accept: header(req.headers.accept) ?? "",
          base: req.base,
        },
        state,
      ) ?? notFound(DOCS)
    );
  };

  const search = (req: RestRequest, now: number): HttpReply => {
    const q = req.params.get("q");
    if (!q)
      return jsonReply(422, {
        message: "Validation Failed",
        errors: [{ resource: "Search", field: "q", code: "missing" }],
        documentation_url: `${DOCS}/search/search#search-repositories`,
      });
    const { perPage, page } = pageParams(req.params);
    if (page * perPage > SEARCH_RESULT_CAP && (page - 1) * perPage >= SEARCH_RESULT_CAP)
      return jsonReply(422, {
        message: "Only the first 1000 search results are available",
        documentation_url: `${DOCS}/search/search`,
      });
    const sort = req.params.get("sort");
    const order = req.params.get("order") === "asc" ? "asc" : "desc";
    const result = searchRepositories(world, sort ? `${q} sort:${sort}-${order}` : q, now);
    const reachable = Math.min(result.total, SEARCH_RESULT_CAP);
    const first = (page - 1) * perPage;
    const items = [];
    for (let p = first; p < Math.min(reachable, first + perPage); p++)
      items.push({ ...repoJson(world, result.indices[p] as number, now), score: 1.0 });
    const link = linkHeader(
      `${req.base}/search/repositories`,
      req.params,
      page,
      Math.max(1, Math.ceil(reachable / perPage)),
    );
    return jsonReply(
      200,
      { total_count: result.total, incomplete_results: false, items },
      link ? { link } : {},
    );
  };

  return (req: RestRequest): HttpReply => {
    const authorization = header(req.headers.authorization);
    const token = authorization ? AUTHORIZATION.exec(authorization)?.[1] : undefined;
    if (authorization !== undefined && token === undefined)
      return jsonReply(401, {
        message: "Bad credentials",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      });
    if (req.method !== "GET" && req.method !== "HEAD") return notFound(DOCS);
    const resource: Resource = req.path.startsWith("/search/") ? "search" : "core";
    const wait = budget.secondary(token);
    if (wait > 0) return jsonReply(403, SECONDARY_LIMIT_BODY, { "retry-after": String(wait) });
    const before = budget.peek(token, resource);
    if (before.remaining <= 0 && req.path !== "/rate_limit")
      return jsonReply(403, primaryLimitBody(token), restRateHeaders(before, resource));
    const reply = withEtag(route(req, options.now(), token), header(req.headers["if-none-match"]));
    // GitHub does not count /rate_limit or a 304 against the primary budget.
    const charged = reply.status !== 304 && req.path !== "/rate_limit";
    const after = charged ? budget.charge(token, resource) : before;
    if (charged) options.onCharge?.(resource);
    return { ...reply, headers: { ...reply.headers, ...restRateHeaders(after, resource) } };
  };
}
