// GitHub REST over the shared HTTP client: tokens in rotation, and every request paced per token under
// GitHub's secondary limits (pipeline/collect/pace.ts), so a night's REST work does not earn 403s to wait out.
// Primary limits and any secondary 403 that slips through (retry-after) are still handled by the HTTP client,
// which pauses the token that was refused.
import type { HttpResult } from "../../collect/http.ts";
import { createPacer, type Pacer } from "../../collect/pace.ts";
import type { CollectContext } from "../types.ts";
import { githubTokens } from "./client.ts";

/** REST requests are counted apart from GraphQL ones (HTTP stats, report, budget) under this source name. */
export const REST_SOURCE = "github_rest";

/**
 * GitHub's secondary limits for REST, per token: 900 points a minute (a GET costs 1) and 100 requests at
 * once (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 */
export const REST_POINTS_PER_MINUTE = 900;
export const REST_MAX_CONCURRENT = 100;

export interface RestLimits {
  perMinute: number;
  concurrent: number;
}

export interface RestGet {
  /** Media type; GitHub's JSON by default. */
  accept?: string;
  /** Send If-None-Match and answer a 304 with the stored body (free of rate limit). */
  conditional?: boolean;
  /** Return a 202 (statistics still computing) as decision "pending". */
  pending?: boolean;
}

export interface RestClient {
  /** How many tokens take turns: the night's REST budget is per token. */
  readonly tokens: number;
  get(url: string, options?: RestGet): Promise<HttpResult>;
}

export function createRestClient(
  ctx: CollectContext,
  limits: RestLimits = { perMinute: REST_POINTS_PER_MINUTE, concurrent: REST_MAX_CONCURRENT },
): RestClient {
  const tokens = githubTokens(ctx.config.github.tokens, ctx.urls);
  const pacers: Pacer[] = tokens.map(() =>
    createPacer({
      limit: limits.perMinute,
      windowMs: 60_000,
      concurrent: limits.concurrent,
      now: () => ctx.clock.now().getTime(),
      sleep: ctx.sleep,
    }),
  );
  let next = 0;
  return {
    tokens: tokens.length,
    get(url, options = {}) {
      const k = next++ % tokens.length;
      const headers = {
        authorization: `token ${tokens[k]}`,
        accept: options.accept ?? "application/vnd.github+json",
      };
      return (pacers[k] as Pacer).run(() =>
        ctx.http.request(url, {
          source: REST_SOURCE,
          headers,
          conditional: options.conditional,
          pending: options.pending,
        }),
      );
    },
  };
}

/** The REST URL of a repository by its owner/name. */
export const repoUrl = (ctx: CollectContext, fullName: string) =>
  `${ctx.urls.githubRest}/repos/${fullName.split("/").map(encodeURIComponent).join("/")}`;
