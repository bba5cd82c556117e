// GitHub REST limits and repository lifecycle: the primary budget answers like the recorded 403s,
// the secondary limit with retry-after, renamed repositories with 301 and deleted ones with 404.
import { afterEach, describe, expect, it } from "vitest";
import { formatDay } from "../dates.ts";
import { exists } from "../metrics.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, postGraphql, readRealFixture } from "../testing.ts";
import { errorShape, recordedHeaders, repoShape } from "./rest-shapes.ts";

let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
const auth = { authorization: "token limits" };

describe("primary and secondary REST limits", () => {
  it("refuses the request after the budget with 403, remaining 0 and a reset, like the recorded body", async () => {
    const recorded = recordedHeaders(
      readRealFixture("github-rest/error-403-primary-rate-limit.users-jacquev6.2013-05.headers.json"),
    );
    expect([recorded.status, recorded.headers.get("x-ratelimit-remaining")]).toEqual([403, "0"]);
    errorShape.parse(readRealFixture("github-rest/error-403-primary-rate-limit.users-jacquev6.2013-05.json"));
    let wall = 1_700_000_000_000;
    sim = await startSimServer({
      repos: 50,
      seed: 2,
      date: "2026-01-15",
      rest: { corePerHour: 2 },
      wallClock: () => wall,
    });
    const url = `${sim.url}/github/repos/nobody/nothing`;
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await fetchJson(url, { headers: auth })).status);
    const refused = await fetchJson(url, { headers: auth });
    expect([...statuses, refused.status]).toEqual([404, 404, 403, 403]);
    expect(errorShape.parse(refused.body).message).toMatch(/^API rate limit exceeded for user ID \d+\.$/);
    expect([refused.headers.get("x-ratelimit-remaining"), refused.headers.get("x-ratelimit-reset")]).toEqual([
      "0",
      String(1_700_000_000 + 3600),
    ]);
    wall += 3_600_000;
    expect((await fetchJson(url, { headers: auth })).status).toBe(404);
  });

  it("answers too many requests in a minute with 403 and retry-after, like the recorded secondary limit", async () => {
    const recorded = recordedHeaders(
      readRealFixture("github-rest/error-403-secondary-abuse-rate-limit.search-code.2018-10.headers.json"),
    );
    expect([recorded.status, recorded.headers.get("retry-after")]).toEqual([403, "60"]);
    sim = await startSimServer({
      repos: 50,
      seed: 2,
      date: "2026-01-15",
      rest: { perMinute: 2 },
      wallClock: () => 1_700_000_000_000,
    });
    const url = `${sim.url}/github/rate_limit`;
    for (let n = 0; n < 2; n++) expect((await fetchJson(url, { headers: auth })).status).toBe(200);
    const refused = await fetchJson(url, { headers: auth });
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([403, "60"]);
    expect(errorShape.parse(refused.body).message).toMatch(/secondary rate limit/);
  });
  it("keeps search on its own budget (30 a minute on GitHub)", async () => {
    sim = await startSimServer({
      repos: 50,
      seed: 2,
      date: "2026-01-15",
      rest: { searchPerMinute: 1 },
      wallClock: () => 1_700_000_000_000,
    });
    const url = `${sim.url}/github/search/repositories?q=stars:>=0`;
    expect((await fetchJson(url, { headers: auth })).status).toBe(200);
    const refused = await fetchJson(url, { headers: auth });
    expect([
      refused.status,
      refused.headers.get("x-ratelimit-resource"),
      refused.headers.get("x-ratelimit-reset"),
    ]).toEqual([403, "search", String(1_700_000_000 + 60)]);
    expect((await fetchJson(`${sim.url}/github/rate_limit`, { headers: auth })).status).toBe(200);
  });

  it("counts a token's requests in flight for the concurrency limit", async () => {
    sim = await startSimServer({ repos: 50, seed: 2, date: "2026-01-15", rest: { maxConcurrent: 0 } });
    const refused = await fetchJson(`${sim.url}/github/rate_limit`, { headers: auth });
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([403, "60"]);
  });
});

describe("renamed and deleted repositories", () => {
  it("redirects a former name with 301 to /repositories/{id}; GraphQL follows it with the same node id", async () => {
    sim = await startSimServer({ repos: 400, seed: 3, date: "2026-01-15", renameShare: 0.2, deleteShare: 0 });
    const world = sim.world;
    const i = [...Array(world.size).keys()].find(
      (j) => world.renameDay(j) < Number.POSITIVE_INFINITY && exists(world, j, sim?.clock.now() ?? 0),
    ) as number;
    const oldName = world.fullName(i);
    const before = await fetch(`${sim.url}/github/repos/${oldName}`, { headers: auth, redirect: "manual" });
    expect(before.status).toBe(200);
    await fetch(`${sim.url}/_sim/advance?days=${world.renameDay(i) - sim.clock.now()}`, { method: "POST" });
    expect(sim.clock.date()).toBe(formatDay(world.renameDay(i)));
    const moved = await fetch(`${sim.url}/github/repos/${oldName}/contributors?per_page=1`, {
      headers: auth,
      redirect: "manual",
    });
    expect([moved.status, moved.headers.get("location")]).toEqual([
      301,
      `${sim.url}/github/repositories/${world.databaseId(i)}/contributors?per_page=1`,
    ]);
    const target = await fetchJson(`${sim.url}/github/repositories/${world.databaseId(i)}`, {
      headers: auth,
    });
    expect(repoShape.parse(target.body).full_name).toBe(world.fullNameAt(i, sim.clock.now()));
    expect(target.body.full_name).not.toBe(oldName);
    const [owner, name] = oldName.split("/");
    const graph = await postGraphql(
      sim.url,
      `{ repository(owner: "${owner}", name: "${name}") { id nameWithOwner } }`,
    );
    expect(graph.body.data.repository).toEqual({ id: world.nodeId(i), nameWithOwner: target.body.full_name });
  });

  it("answers a deleted repository with 404 on REST and null + NOT_FOUND in GraphQL nodes", async () => {
    sim = await startSimServer({ repos: 400, seed: 3, date: "2026-01-15", renameShare: 0, deleteShare: 0.2 });
    const world = sim.world;
    const i = [...Array(world.size).keys()].find(
      (j) => world.deleteDay(j) < Number.POSITIVE_INFINITY && exists(world, j, sim?.clock.now() ?? 0),
    ) as number;
    await fetch(`${sim.url}/_sim/advance?days=${world.deleteDay(i) - sim.clock.now()}`, { method: "POST" });
    expect((await fetchJson(`${sim.url}/github/repos/${world.fullName(i)}`, { headers: auth })).status).toBe(
      404,
    );
    const graph = await postGraphql(sim.url, `{ nodes(ids: ["${world.nodeId(i)}"]) { id } }`);
    expect(graph.body.data.nodes).toEqual([null]);
    expect(graph.body.errors[0]).toMatchObject({ type: "NOT_FOUND", path: ["nodes", 0] });
  });
});
