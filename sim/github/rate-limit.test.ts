// The hourly GraphQL budget: spending it, GitHub's refusal once it is spent (HTTP 200, RATE_LIMITED,
// x-ratelimit-remaining 0), separate budgets per token, and the window following wall time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../server.ts";
import { postGraphql } from "../testing.ts";
import { createRateLimiter } from "./rate-limit.ts";

let wallClock = Date.parse("2026-05-01T12:00:00Z");
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({
    repos: 300,
    seed: 9,
    date: "2026-01-15",
    graphqlPointsPerHour: 3,
    wallClock: () => wallClock,
  });
});
afterAll(async () => {
  await sim.close();
});

const RESET = String(Date.parse("2026-05-01T13:00:00Z") / 1000);
const rateHeaders = (headers: Headers) =>
  Object.fromEntries(
    [...headers].filter(([name]) => name.startsWith("x-ratelimit")).map(([n, v]) => [n.slice(12), v]),
  );

describe("rate limit exhaustion", () => {
  it("serves until the budget is spent, then refuses like GitHub until the window resets", async () => {
    for (const used of [1, 2, 3]) {
      const reply = await postGraphql(sim.url, "{ rateLimit { remaining used } }", {}, "tok-a");
      expect(reply.body).toEqual({ data: { rateLimit: { remaining: 3 - used, used } } });
    }
    const refused = await postGraphql(sim.url, "{ viewer { login } }", {}, "tok-a");
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      errors: [
        {
          type: "RATE_LIMITED",
          message: expect.stringMatching(/^API rate limit exceeded for user ID \d+\.$/),
        },
      ],
    });
    expect(rateHeaders(refused.headers)).toEqual({
      limit: "3",
      remaining: "0",
      used: "3",
      reset: RESET,
      resource: "graphql",
    });

    const other = await postGraphql(sim.url, "{ rateLimit { remaining } }", {}, "tok-b");
    expect(other.body).toEqual({ data: { rateLimit: { remaining: 2 } } });

    wallClock += 3_600_000;
    const later = await postGraphql(sim.url, "{ rateLimit { remaining used resetAt } }", {}, "tok-a");
    expect(later.body).toEqual({
      data: { rateLimit: { remaining: 2, used: 1, resetAt: "2026-05-01T14:00:00Z" } },
    });
  });

  it("does not charge a dry run", async () => {
    const dry = await postGraphql(sim.url, "{ rateLimit(dryRun: true) { cost remaining } }", {}, "tok-c");
    expect(dry.body).toEqual({ data: { rateLimit: { cost: 1, remaining: 3 } } });
    expect(dry.headers.get("x-ratelimit-used")).toBe("0");
  });
});

describe("createRateLimiter", () => {
  it("opens a window at the first request and lets one call overshoot the budget", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ pointsPerHour: 10, now: () => now });
    expect(limiter.peek("t")).toEqual({ limit: 10, used: 0, remaining: 10, reset: 4600 });
    expect(limiter.charge("t", 12)).toEqual({ limit: 10, used: 12, remaining: 0, reset: 4600 });
    now = 4_600_000;
    expect(limiter.peek("t")).toEqual({ limit: 10, used: 0, remaining: 10, reset: 8200 });
  });
});
