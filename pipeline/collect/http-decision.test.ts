// classifyResponse over hand-made cases and over every recorded GitHub REST error/202 status with its headers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyResponse, parseRetryAfter } from "./http-decision.ts";

const REST = path.resolve(import.meta.dirname, "../../test/fixtures/real/github-rest");

function recorded(stem: string) {
  const wrapper = JSON.parse(readFileSync(path.join(REST, `${stem}.headers.json`), "utf8")) as {
    status: number;
    headers: [string, string][];
  };
  const headers = Object.fromEntries(wrapper.headers.map(([k, v]) => [k.toLowerCase(), v]));
  const body = JSON.parse(readFileSync(path.join(REST, `${stem}.json`), "utf8"));
  const date = new Date(headers.date ?? "");
  return { status: wrapper.status, headers, body, date };
}

describe("classifyResponse on recorded GitHub REST responses", () => {
  it("403 primary limit (x-ratelimit-remaining 0, no reset recorded) retries after GitHub's one-minute minimum", () => {
    const r = recorded("error-403-primary-rate-limit.users-jacquev6.2013-05");
    expect(classifyResponse(r.status, r.headers, r.body, r.date)).toEqual({
      decision: "retry",
      retryAfterMs: 60_000,
      reason: "403 primary rate limit exhausted (no reset time given)",
      rateLimited: true,
    });
  });

  it("403 primary limit with a reset header retries exactly at the reset", () => {
    const r = recorded("error-403-primary-rate-limit.users-jacquev6.2013-05");
    const reset = Math.floor(r.date.getTime() / 1000) + 1800;
    const verdict = classifyResponse(
      r.status,
      { ...r.headers, "x-ratelimit-reset": String(reset) },
      r.body,
      r.date,
    );
    expect(verdict).toEqual({
      decision: "retry",
      retryAfterMs: 1_800_000,
      reason: "403 primary rate limit exhausted",
      rateLimited: true,
    });
  });

  it("403 secondary limit with Retry-After 60 retries after 60 s", () => {
    const r = recorded("error-403-secondary-abuse-rate-limit.search-code.2018-10");
    expect(classifyResponse(r.status, r.headers, r.body, r.date)).toEqual({
      decision: "retry",
      retryAfterMs: 60_000,
      reason: "403 secondary rate limit (Retry-After 60 s)",
      rateLimited: true,
    });
  });

  it("202 while statistics are computed retries", () => {
    for (const stem of [
      "stats-commit-activity.PyGithub-PyGithub.202-accepted.2013-11",
      "stats-commit-activity.sigmavirus24-github3.py.202-accepted.2018-01",
    ]) {
      const r = recorded(stem);
      expect(classifyResponse(r.status, r.headers, r.body, r.date)).toEqual({
        decision: "retry",
        reason: "202 accepted, still computing",
      });
    }
  });

  it("every other recorded status is ok, and every recorded status has a test", () => {
    const stems = readdirSync(REST)
      .filter((f) => f.endsWith(".headers.json"))
      .map((f) => f.replace(/\.headers\.json$/, ""));
    const decisions = Object.fromEntries(
      stems.map((s) => [
        s,
        classifyResponse(recorded(s).status, recorded(s).headers, recorded(s).body, recorded(s).date)
          .decision,
      ]),
    );
    const notOk = Object.entries(decisions)
      .filter(([, d]) => d !== "ok")
      .map(([s]) => s)
      .sort();
    expect(notOk).toEqual([
      "error-403-primary-rate-limit.users-jacquev6.2013-05",
      "error-403-secondary-abuse-rate-limit.search-code.2018-10",
      "stats-commit-activity.PyGithub-PyGithub.202-accepted.2013-11",
      "stats-commit-activity.sigmavirus24-github3.py.202-accepted.2018-01",
    ]);
  });

  it("the unauthenticated 403 body without headers is still recognised as a rate limit by its message", () => {
    const body = JSON.parse(
      readFileSync(path.join(REST, "error-403-primary-rate-limit.unauthenticated.2026-07.json"), "utf8"),
    );
    expect(classifyResponse(403, {}, body)).toEqual({
      decision: "retry",
      retryAfterMs: 60_000,
      reason: "403 rate limited",
      rateLimited: true,
    });
  });
});

describe("classifyResponse rules", () => {
  const now = new Date("2026-03-01T12:00:00Z");

  it("maps statuses to decisions", () => {
    expect(classifyResponse(200, {}, {}).decision).toBe("ok");
    expect(classifyResponse(304, {}, null).decision).toBe("not_modified");
    expect(classifyResponse(404, {}, null)).toEqual({ decision: "skip", reason: "404 not found" });
    expect(classifyResponse(410, {}, null)).toEqual({ decision: "skip", reason: "410 not found" });
    expect(classifyResponse(400, {}, { message: "Problems parsing JSON" })).toMatchObject({
      decision: "fail",
      reason: "400 refused: Problems parsing JSON",
    });
    expect(classifyResponse(422, {}, null).decision).toBe("fail");
    expect(classifyResponse(403, {}, { message: "Resource not accessible by integration" }).decision).toBe(
      "fail",
    );
    expect(classifyResponse(502, {}, null)).toEqual({ decision: "retry", reason: "502 server error" });
    expect(classifyResponse(503, { "retry-after": "5" }, null, now)).toEqual({
      decision: "retry",
      retryAfterMs: 5000,
      reason: "503 server error",
    });
    expect(classifyResponse(429, {}, null)).toMatchObject({ decision: "retry", retryAfterMs: 60_000 });
  });

  it("401 fails with a hint naming the token setting", () => {
    const verdict = classifyResponse(401, {}, { message: "Bad credentials" });
    expect(verdict).toMatchObject({ decision: "fail", reason: "401 unauthorized: Bad credentials" });
    expect(verdict.hint).toContain("PROJINTEL_GITHUB__TOKENS");
  });

  it("reads a GraphQL RATE_LIMITED answer (HTTP 200, no data) as a retry at the reset", () => {
    const reset = String(now.getTime() / 1000 + 600);
    const body = { errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for user ID 1." }] };
    expect(
      classifyResponse(200, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }, body, now),
    ).toEqual({
      decision: "retry",
      retryAfterMs: 600_000,
      reason: "200 GraphQL rate limit exhausted",
      rateLimited: true,
    });
  });

  it("fails a GraphQL answer with errors and no data, but passes partial data through", () => {
    const refused = { errors: [{ message: "Field 'x' doesn't exist on type 'Repository'" }] };
    expect(classifyResponse(200, {}, refused)).toMatchObject({
      decision: "fail",
      reason: "200 GraphQL error: Field 'x' doesn't exist on type 'Repository'",
    });
    const partial = { data: { nodes: [null] }, errors: [{ type: "NOT_FOUND", path: ["nodes", 0] }] };
    expect(classifyResponse(200, {}, partial).decision).toBe("ok");
  });

  it("parses Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:01:30 GMT", now)).toBe(90_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
