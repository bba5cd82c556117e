// GitHub REST over a real socket: each endpoint's body passes the same shape check as the recorded real
// body, pages follow `Link`, statistics answer 202 first, ETags give 304s that cost nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as m from "../metrics.ts";
import { FLAG_GH_RELEASES } from "../repo-params.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, readRealFixture } from "../testing.ts";
import {
  commitActivityShape,
  contributorsShape,
  errorShape,
  issuesShape,
  parseLink,
  rateLimitShape,
  recordedHeaders,
  releasesShape,
  repoShape,
  searchShape,
} from "./rest-shapes.ts";

let sim: SimServer;
const auth = { authorization: "token rest-test" };
beforeAll(async () => {
  sim = await startSimServer({ repos: 1500, seed: 4, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

/** The first repository with at least `stars` stars and `commits` commits at the sim date. */
function repoWith(stars: number, commits = 1): number {
  const now = sim.clock.now();
  for (let i = 0; i < sim.world.size; i++) {
    if (
      m.exists(sim.world, i, now) &&
      now < sim.world.deleteDay(i) &&
      m.starsBase(sim.world, i, now) >= stars &&
      m.commits(sim.world, i, now) >= commits &&
      !(sim.world.renameDay(i) <= now)
    )
      return i;
  }
  throw new Error("no such repository in the test world");
}
const get = (path: string, headers: Record<string, string> = auth) =>
  fetchJson(`${sim.url}/github${path}`, { headers });

describe("GET /github/repos/{owner}/{repo}", () => {
  it("answers in the shape of the recorded repo-get bodies, with rate headers and an ETag", async () => {
    for (const name of [
      "PyGithub-PyGithub.2025-01",
      "sigmavirus24-github3.py.2017-12",
      "test-archived.archived-true.2024-03",
    ])
      repoShape.parse(readRealFixture(`github-rest/repo-get.${name}.json`));
    const i = repoWith(50);
    const reply = await get(`/repos/${sim.world.fullName(i)}`);
    expect(reply.status).toBe(200);
    const body = repoShape.parse(reply.body);
    expect([body.full_name, body.id, body.stargazers_count]).toEqual([
      sim.world.fullName(i),
      sim.world.databaseId(i),
      m.stars(sim.world, i, sim.clock.now()),
    ]);
    expect(reply.headers.get("x-ratelimit-resource")).toBe("core");
    expect(reply.headers.get("etag")).toMatch(/^W\/"[0-9a-f]{40}"$/);
  });

  it("answers If-None-Match with a 304 that is not charged", async () => {
    const path = `/repos/${sim.world.fullName(repoWith(10))}`;
    const first = await get(path);
    const used = Number(first.headers.get("x-ratelimit-used"));
    const again = await fetch(`${sim.url}/github${path}`, {
      headers: { ...auth, "if-none-match": first.headers.get("etag") as string },
    });
    expect([again.status, await again.text(), again.headers.get("x-ratelimit-used")]).toEqual([
      304,
      "",
      String(used),
    ]);
  });

  it("answers an unknown repository with 404 and bad credentials with 401", async () => {
    const missing = await get("/repos/nobody/nothing");
    expect(missing.status).toBe(404);
    errorShape.parse(missing.body);
    expect((await get("/repos/a/b", { authorization: "nonsense" })).status).toBe(401);
  });
});

describe("GET /github/repos/{o}/{r}/contributors", () => {
  it("pages with Link headers like the recorded ones", async () => {
    contributorsShape.parse(
      readRealFixture("github-rest/contributors.sigmavirus24-github3.py.page1.2018-01.json"),
    );
    const recorded = recordedHeaders(
      readRealFixture("github-rest/contributors.sigmavirus24-github3.py.page1.2018-01.headers.json"),
    );
    expect(Object.keys(parseLink(recorded.headers.get("link") ?? null))).toEqual(["next", "last"]);
    const i = repoWith(2000, 400);
    const first = await get(`/repos/${sim.world.fullName(i)}/contributors?per_page=5`);
    const body = contributorsShape.parse(first.body);
    expect(body.length).toBe(5);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links)).toEqual(["next", "last"]);
    expect(links.next).toBe(
      `${sim.url}/github/repositories/${sim.world.databaseId(i)}/contributors?per_page=5&page=2`,
    );
    const last = await fetchJson(links.last as string, { headers: auth });
    expect(Object.keys(parseLink(last.headers.get("link")))).toEqual(["prev", "first"]);
    expect(contributorsShape.parse(last.body).length).toBeGreaterThan(0);
  });
});

describe("GET /github/repos/{o}/{r}/stats/commit_activity", () => {
  it("answers 202 {} first, then 52 weeks like the recorded body", async () => {
    commitActivityShape.parse(
      readRealFixture("github-rest/stats-commit-activity.PyGithub-PyGithub.200.2013-11.json"),
    );
    expect(
      readRealFixture("github-rest/stats-commit-activity.PyGithub-PyGithub.202-accepted.2013-11.json"),
    ).toEqual({});
    const i = repoWith(100, 200);
    const path = `/repos/${sim.world.fullName(i)}/stats/commit_activity`;
    expect([(await get(path)).status, (await get(path)).status]).toEqual([202, 200]);
    const weeks = commitActivityShape.parse((await get(path)).body);
    expect(new Date((weeks[51]?.week ?? 0) * 1000).getUTCDay()).toBe(0);
  });
});

describe("GET /github/repos/{o}/{r}/issues", () => {
  it("lists issues and pull requests like the recorded pages, with comments to time the first response", async () => {
    issuesShape.parse(readRealFixture("github-rest/issues-list.PyGithub-PyGithub.page1.2024-09.json"));
    issuesShape.parse(
      readRealFixture("github-rest/issues-list.betamaxpy-betamax.state-all.page2.2017-12.json"),
    );
    const i = repoWith(500, 300);
    const reply = await get(
      `/repos/${sim.world.fullName(i)}/issues?state=all&since=2025-10-01T00:00:00Z&per_page=50`,
    );
    const items = issuesShape.parse(reply.body);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.updated_at >= "2025-10-01T00:00:00Z")).toBe(true);
    const commented = items.find((item) => item.comments > 0);
    const comments = await get(`/repos/${sim.world.fullName(i)}/issues/${commented?.number}/comments`);
    expect(comments.body.length).toBe(commented?.comments);
    expect(comments.body[0].created_at >= (commented?.created_at ?? "")).toBe(true);
  });
});

describe("GET /github/repos/{o}/{r}/issues without filters", () => {
  it("pages newest first straight from the numbering, the same items a filtered list shows", async () => {
    const i = repoWith(200, 100);
    const base = `/repos/${sim.world.fullName(i)}/issues?state=all&per_page=10`;
    const plain = issuesShape.parse((await get(`${base}&page=2`)).body);
    const filtered = issuesShape.parse((await get(`${base}&since=1970-01-01T00:00:00Z&page=2`)).body);
    expect(plain).toEqual(filtered);
    expect(plain.map((item) => item.number)).toEqual(
      [...plain.map((item) => item.number)].sort((a, b) => b - a),
    );
  });
});

describe("GET /github/repos/{o}/{r}/stargazers", () => {
  it("gives starred_at under the star+json media type, the last page the newest", async () => {
    const i = repoWith(150);
    const path = `/repos/${sim.world.fullName(i)}/stargazers?per_page=100`;
    const first = await get(path, { ...auth, accept: "application/vnd.github.star+json" });
    const last = await fetchJson(parseLink(first.headers.get("link")).last as string, {
      headers: { ...auth, accept: "application/vnd.github.star+json" },
    });
    const times = [...first.body, ...last.body].map((star: { starred_at: string }) => star.starred_at);
    expect(times).toEqual([...times].sort());
    expect(typeof last.body[0].user.login).toBe("string");
    const plain = await get(path);
    expect(Object.keys(plain.body[0])).toContain("login");
  });

  it("lists as many stargazers as stargazers_count, dated so that the list replays the star counts", async () => {
    const now = sim.clock.now();
    const candidates = [...Array(sim.world.size).keys()].filter((i) => {
      const base = m.exists(sim.world, i, now) ? m.starsBase(sim.world, i, now) : 0;
      return base > 100 && base <= 400 && now < sim.world.deleteDay(i) && !(sim.world.renameDay(i) <= now);
    });
    // One repository where someone unstarred today (the count one below the list it is built from), two not.
    const dropped = candidates.filter((i) => m.stars(sim.world, i, now) < m.starsBase(sim.world, i, now));
    const kept = candidates.filter((i) => m.stars(sim.world, i, now) === m.starsBase(sim.world, i, now));
    expect(dropped.length).toBeGreaterThan(0);
    for (const i of [dropped[0], ...kept.slice(0, 2)] as number[]) {
      const star = { ...auth, accept: "application/vnd.github.star+json" };
      const count = repoShape.parse((await get(`/repos/${sim.world.fullName(i)}`)).body).stargazers_count;
      const times: number[] = [];
      for (let page = 1; page <= Math.ceil(count / 100) + 1; page++) {
        const body = (await get(`/repos/${sim.world.fullName(i)}/stargazers?per_page=100&page=${page}`, star))
          .body as { starred_at: string }[];
        times.push(...body.map((s) => Date.parse(s.starred_at)));
      }
      expect(times).toHaveLength(count);
      for (let day = Math.floor(now) - 30; day <= Math.floor(now); day++) {
        const before = times.filter((t) => t < day * 86_400_000).length;
        expect([i, day, before]).toEqual([i, day, Math.min(count, m.starsBase(sim.world, i, day))]);
      }
    }
  });
});

describe("GET /github/repos/{o}/{r}/releases", () => {
  it("lists releases newest first like the recorded pages", async () => {
    for (const name of [
      "PyGithub-PyGithub.page1-of-3.2022-01",
      "PyGithub-PyGithub.page3-of-3.2022-01",
      "simonw-datasette-app.2026-08",
    ])
      releasesShape.parse(readRealFixture(`github-rest/releases-list.${name}.json`));
    const now = sim.clock.now();
    const i = [...Array(sim.world.size).keys()].find(
      (j) =>
        m.exists(sim.world, j, now) &&
        (sim.world.params.flags[j] as number) & FLAG_GH_RELEASES &&
        m.releaseCount(sim.world, j, now) >= 3,
    ) as number;
    const body = releasesShape.parse((await get(`/repos/${sim.world.fullName(i)}/releases?per_page=3`)).body);
    const times = body.map((r) => r.published_at ?? "");
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe("GET /github/search/repositories and /github/rate_limit", () => {
  it("answers search like the recorded bodies, capped at 1,000 results, on the search budget", async () => {
    searchShape.parse(
      readRealFixture("github-rest/search-repositories.q-github-language-python.page1.2014-03.json"),
    );
    searchShape.parse(
      readRealFixture("github-rest/search-repositories.q-tetris-language-assembly.2014-01.json"),
    );
    const reply = await get("/search/repositories?q=stars:>=1&sort=stars&order=desc&per_page=100&page=2");
    const body = searchShape.parse(reply.body);
    expect([body.items.length, body.incomplete_results, reply.headers.get("x-ratelimit-resource")]).toEqual([
      100,
      false,
      "search",
    ]);
    expect(parseLink(reply.headers.get("link")).last).toContain("page=10");
    expect((await get("/search/repositories?q=stars:>=1&per_page=100&page=11")).status).toBe(422);
  });

  it("reports the budgets like the recorded rate_limit body", async () => {
    rateLimitShape.parse(readRealFixture("github-rest/rate-limit.librariesio-archived.2024-03.json"));
    const body = rateLimitShape.parse((await get("/rate_limit")).body);
    expect([body.resources.core.limit, body.resources.search.limit, body.resources.graphql.limit]).toEqual([
      5000, 30, 5000,
    ]);
  });
});
