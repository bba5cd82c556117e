// Token rotation and budget handling against a local GraphQL stand-in over real sockets; sleeps are recorded.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { fixedClock } from "../../../core/clock.ts";
import { loadConfig } from "../../../core/config.ts";
import type { AppError } from "../../../core/errors.ts";
import { silentLogger } from "../../../core/log.ts";
import { createHttpClient, RetryLaterError } from "../../collect/http.ts";
import { sourceUrls } from "../urls.ts";
import { createGithubClient, githubTokens } from "./client.ts";
import { envelope, rateLimitSchema } from "./schemas.ts";

const now = new Date("2026-03-01T12:00:00Z");
const resetAt = "2026-03-01T12:01:00Z"; // one minute away
let budgets: Record<string, number> = {};
const used: string[] = [];
const server = createServer((req, res) => {
  const token = String(req.headers.authorization).replace("bearer ", "");
  used.push(token);
  req.resume();
  req.on("end", () => {
    const left = budgets[token] ?? 0;
    if (left <= 0) {
      // GitHub's answer once a token's primary budget is gone (reset far away, as the server sees it).
      res.writeHead(403, {
        "content-type": "application/json",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now.getTime() / 1000 + 3600),
      });
      return res.end(JSON.stringify({ message: "API rate limit exceeded" }));
    }
    budgets[token] = left - 2;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        data: { viewer: { login: token }, rateLimit: { cost: 2, remaining: left - 2, resetAt } },
      }),
    );
  });
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  used.length = 0;
});

const schema = envelope(z.object({ viewer: z.object({ login: z.string() }), rateLimit: rateLimitSchema }));

function setup(tokens: string[], maxRetryWaitMs = 120_000, onSleep: () => void = () => {}) {
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    onSleep();
  };
  const clock = fixedClock(now);
  const http = createHttpClient({
    userAgent: "t",
    timeoutMs: 2000,
    retries: 2,
    perHostConcurrency: 2,
    maxRetryWaitMs,
    sleep,
    clock,
  });
  let points = 0;
  const client = createGithubClient({
    http,
    url,
    tokens,
    clock,
    sleep,
    maxRetryWaitMs,
    logger: silentLogger,
    onPoints: (p) => (points += p),
  });
  return { client, sleeps, http, points: () => points };
}

describe("GitHub GraphQL client", () => {
  it("uses the token with the most points left and counts the points", async () => {
    budgets = { a: 10, b: 50 };
    const { client, points, http } = setup(["a", "b"]);
    for (let i = 0; i < 4; i++) await client.query("{ viewer { login } }", {}, schema);
    // Unknown budgets first (a, then b); then b, which has more left.
    expect(used).toEqual(["a", "b", "b", "b"]);
    expect(points()).toBe(8);
    http.close();
  });

  it("waits for the earliest reset when every token is spent and the reset is soon enough", async () => {
    budgets = { a: 2 };
    const { client, sleeps, http } = setup(["a"], 120_000, () => (budgets = { a: 10 }));
    await client.query("{ viewer { login } }", {}, schema); // leaves 0 points, resetting in one minute
    const second = await client.query("{ viewer { login } }", {}, schema);
    expect(second.data?.viewer.login).toBe("a");
    expect(sleeps).toEqual([60_000]);
    http.close();
  });

  it("stops with a transient error saying when the budget resets when that is too far away", async () => {
    budgets = { a: 2 };
    const { client, sleeps, http } = setup(["a"], 30_000);
    await client.query("{ viewer { login } }", {}, schema);
    const error = await client.query("{ viewer { login } }", {}, schema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLaterError);
    expect((error as AppError).kind).toBe("transient");
    expect((error as Error).message).toBe(
      "GitHub GraphQL (all 1 token) was refused (the hourly point budget is spent); retry after 2026-03-01T12:01:00.000Z.",
    );
    expect(sleeps).toEqual([]);
    http.close();
  });

  it("parks a token GitHub refuses with a far reset and carries on with another", async () => {
    budgets = { a: 0, b: 10 };
    const { client, http } = setup(["a", "b"]);
    const answer = await client.query("{ viewer { login } }", {}, schema);
    expect(answer.data?.viewer.login).toBe("b");
    expect(used).toEqual(["a", "b"]);
    http.close();
  });
});

describe("githubTokens", () => {
  it("uses the configured tokens, 'sim' against the simulator, and refuses real GitHub without one", () => {
    const real = sourceUrls(loadConfig({ env: {} }));
    const sim = sourceUrls(loadConfig({ env: {}, overrides: { simUrl: "http://127.0.0.1:9" } }));
    expect(githubTokens(["t1", "t2"], real)).toEqual(["t1", "t2"]);
    expect(githubTokens([], sim)).toEqual(["sim"]);
    const error = (() => {
      try {
        return githubTokens([], real);
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(error.message).toBe("No GitHub token is configured, and GitHub's GraphQL API requires one.");
    expect(error.hint).toContain("PROJINTEL_GITHUB__TOKENS");
  });
});
