// The simulator's HTTP surface: the clock and its 400s, per-source request counts, unknown paths, and
// the whole world moving when the clock advances.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "../core/log.ts";
import { type SimServer, startSimServer } from "./server.ts";
import { fetchJson, postGraphql } from "./testing.ts";

const logger = memoryLogger();
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 800, seed: 2, date: "2026-01-15", logger });
});
afterAll(async () => {
  await sim.close();
});

const call = async (path: string, init?: RequestInit) => {
  const { status, body } = await fetchJson(`${sim.url}${path}`, init);
  return [status, body];
};

describe("startSimServer", () => {
  it("listens on an ephemeral port of 127.0.0.1 and logs its URL", () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(logger.lines.find((line) => line.msg === "sim server listening")).toMatchObject({
      url: sim.url,
      repos: 800,
    });
  });

  it("refuses a malformed date", async () => {
    await expect(startSimServer({ repos: 10, seed: 1, date: "2026-02-31" })).rejects.toThrow(
      '"2026-02-31" is not a YYYY-MM-DD day',
    );
  });
});

describe("/_sim endpoints", () => {
  it("rejects a bad days parameter with a 400 naming it", async () => {
    for (const days of ["0", "3651", "abc", "1.5", "-1", ""]) {
      const [status, body] = await call(`/_sim/advance?days=${days}`, { method: "POST" });
      expect([status, body.parameter]).toEqual([400, "days"]);
    }
    expect((await call("/_sim/advance", { method: "POST" }))[0]).toBe(400);
    expect((await call("/_sim/advance?days=1"))[0]).toBe(405);
    expect(await call("/_sim/clock")).toEqual([200, { date: "2026-01-15" }]);
  });

  it("moves every source forward when the clock advances", async () => {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Repository { stargazerCount
      defaultBranchRef { target { ... on Commit { history { totalCount } } } } } } }`;
    const ids = Array.from({ length: 100 }, (_, k) => sim.world.nodeId(k * 7));
    const totals = async () => {
      const nodes = (await postGraphql(sim.url, query, { ids })).body.data.nodes;
      return nodes.reduce(
        (
          sum: number[],
          node: {
            stargazerCount: number;
            defaultBranchRef: { target: { history: { totalCount: number } } } | null;
          },
        ) => [
          (sum[0] as number) + node.stargazerCount,
          (sum[1] as number) + (node.defaultBranchRef?.target.history.totalCount ?? 0),
        ],
        [0, 0],
      );
    };
    const [starsBefore, commitsBefore] = await totals();
    expect(await call("/_sim/advance?days=7", { method: "POST" })).toEqual([200, { date: "2026-01-22" }]);
    expect(await call("/_sim/clock")).toEqual([200, { date: "2026-01-22" }]);
    const [starsAfter, commitsAfter] = await totals();
    expect(starsAfter).toBeGreaterThan(starsBefore as number);
    expect(commitsAfter).toBeGreaterThan(commitsBefore as number);
  });

  it("counts requests per source and the GraphQL points spent", async () => {
    const fresh = await startSimServer({ repos: 50, seed: 1, date: "2026-01-15" });
    try {
      await postGraphql(fresh.url, "{ viewer { login } }");
      await fetch(`${fresh.url}/pypi/pypi/nothing-here/json`);
      await fetch(`${fresh.url}/pypistats/api/packages/nothing-here/recent`);
      await fetch(`${fresh.url}/pypistats/api/packages/nothing-here/recent`);
      const stats = await fetchJson(`${fresh.url}/_sim/stats`);
      expect(stats.body.requests).toMatchObject({ github: 1, pypi: 1, pypistats: 2 });
      expect(stats.body.graphql_points).toBe(1);
      expect(stats.body.faults).toEqual({});
    } finally {
      await fresh.close();
    }
  });
});

describe("other paths", () => {
  it("answers unknown paths and methods with JSON 404s", async () => {
    expect(await call("/nowhere")).toEqual([404, { message: "Not Found" }]);
    expect(await call("/github/nowhere")).toEqual([
      404,
      { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" },
    ]);
    expect((await call("/github/graphql"))[0]).toBe(404);
  });

  it("answers a body that is not JSON with GitHub's 400", async () => {
    const response = await fetch(`${sim.url}/github/graphql`, {
      method: "POST",
      headers: { authorization: "bearer t" },
      body: "{nope",
    });
    expect([response.status, await response.json()]).toEqual([
      400,
      { message: "Problems parsing JSON", documentation_url: "https://docs.github.com/graphql" },
    ]);
  });
});
