// GitHub's REST budgets per token: the primary limits (core 5,000 requests an hour, search 30 a minute)
// and the secondary limits (too many concurrent requests, or too many in one minute) that answer 403 with
// retry-after. Unauthenticated callers share one small core budget (60 an hour), as on GitHub.
import { type Budget, createRateLimiter } from "./rate-limit.ts";

export const REST_CORE_PER_HOUR = 5_000;
export const REST_SEARCH_PER_MINUTE = 30;
const ANONYMOUS_PER_HOUR = 60;
/** Secondary limits (GitHub documents 100 concurrent requests and 900 points a minute for REST). */
export const SECONDARY_MAX_CONCURRENT = 100;
export const SECONDARY_PER_MINUTE = 900;
const SECONDARY_RETRY_AFTER = 60;

export interface RestBudgetOptions {
  corePerHour?: number;
  searchPerMinute?: number;
  maxConcurrent?: number;
  perMinute?: number;
  /** Wall clock in milliseconds. */
  now?: () => number;
}

export type Resource = "core" | "search";

export interface RestBudget {
  /** The budget of a resource for a token (undefined: anonymous) without charging. */
  peek(token: string | undefined, resource: Resource): Budget;
  charge(token: string | undefined, resource: Resource): Budget;
  /** Seconds to wait when the secondary limit refuses this request now, else 0. Counts the request. */
  secondary(token: string | undefined): number;
  /** A request of this token started / finished (for the concurrency limit). */
  begin(token: string | undefined): void;
  end(token: string | undefined): void;
  /** Forgets the hourly and per-minute windows (requests in flight stay counted): a simulated day passed. */
  clear(): void;
}

export function createRestBudget(options: RestBudgetOptions = {}): RestBudget {
  const now = options.now ?? Date.now;
  const core = createRateLimiter({ pointsPerHour: options.corePerHour ?? REST_CORE_PER_HOUR, now });
  const anonymous = createRateLimiter({ pointsPerHour: ANONYMOUS_PER_HOUR, now });
  const search = createRateLimiter({
    pointsPerHour: options.searchPerMinute ?? REST_SEARCH_PER_MINUTE,
    windowSeconds: 60,
    now,
  });
  const maxConcurrent = options.maxConcurrent ?? SECONDARY_MAX_CONCURRENT;
  const perMinute = options.perMinute ?? SECONDARY_PER_MINUTE;
  const inFlight = new Map<string, number>();
  const minutes = new Map<string, { minute: number; count: number }>();
  const limiter = (token: string | undefined, resource: Resource) =>
    resource === "search" ? search : token === undefined ? anonymous : core;
  const key = (token: string | undefined) => token ?? "anonymous";

  return {
    peek: (token, resource) => limiter(token, resource).peek(key(token)),
    charge: (token, resource) => limiter(token, resource).charge(key(token), 1),
    secondary: (token) => {
      const id = key(token);
      const minute = Math.floor(now() / 60_000);
      const window = minutes.get(id);
      const count = window && window.minute === minute ? window.count + 1 : 1;
      minutes.set(id, { minute, count });
      const concurrent = inFlight.get(id) ?? 0;
      return concurrent > maxConcurrent || count > perMinute ? SECONDARY_RETRY_AFTER : 0;
    },
    begin: (token) => inFlight.set(key(token), (inFlight.get(key(token)) ?? 0) + 1),
    end: (token) => {
      const id = key(token);
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left > 0) inFlight.set(id, left);
      else inFlight.delete(id);
    },
    clear: () => {
      for (const limiter of [core, anonymous, search]) limiter.clear();
      minutes.clear();
    },
  };
}

export function restRateHeaders(budget: Budget, resource: Resource): Record<string, string> {
  return {
    "x-ratelimit-limit": String(budget.limit),
    "x-ratelimit-remaining": String(budget.remaining),
    "x-ratelimit-reset": String(budget.reset),
    "x-ratelimit-used": String(budget.used),
    "x-ratelimit-resource": resource,
  };
}
