// Repository search over a real socket: qualifiers match a brute-force count of the world, pages follow
// cursors without overlap, and only the first 1,000 results can be paged while repositoryCount stays true.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDay } from "../dates.ts";
import * as m from "../metrics.ts";
import { FLAG_FORK } from "../repo-params.ts";
import { descriptionOf, topicNames } from "../repo-text.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { postGraphql } from "../testing.ts";

const NOW = parseDay("2026-01-15") as number;
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 3000, seed: 4, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

const SEARCH = `query($q: String!, $after: String) { search(type: REPOSITORY, query: $q, first: 100, after: $after) {
  repositoryCount pageInfo { endCursor hasNextPage } nodes { ... on Repository { nameWithOwner stargazerCount createdAt isFork isArchived } } } }`;

async function search(q: string, after?: string) {
  return (await postGraphql(sim.url, SEARCH, { q, after }, "search")).body.data.search;
}

function bruteForce(test: (i: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < sim.world.size; i++) {
    const fork = ((sim.world.params.flags[i] as number) & FLAG_FORK) !== 0;
    if (m.exists(sim.world, i, NOW) && !fork && test(i)) count++;
  }
  return count;
}

describe("search(type: REPOSITORY)", () => {
  it("counts every match but pages only the first 1,000, in cursor order without overlap", async () => {
    const expected = bruteForce(() => true);
    const seen = new Set<string>();
    let after: string | undefined;
    let page = await search("", after);
    for (let n = 1; n < 10; n++) {
      expect(page.pageInfo.hasNextPage).toBe(true);
      for (const node of page.nodes) seen.add(node.nameWithOwner);
      after = page.pageInfo.endCursor;
      page = await search("", after);
    }
    for (const node of page.nodes) seen.add(node.nameWithOwner);
    expect(page.repositoryCount).toBe(expected);
    expect(expected).toBe(2846);
    expect(seen.size).toBe(1000);
    expect(page.pageInfo).toEqual({ endCursor: "Y3Vyc29yOjEwMDA=", hasNextPage: false });
    const beyond = await search("", page.pageInfo.endCursor);
    expect([beyond.repositoryCount, beyond.nodes, beyond.pageInfo]).toEqual([
      expected,
      [],
      { endCursor: null, hasNextPage: false },
    ]);
  });

  it("sorts by stars by default, best first", async () => {
    const stars = (await search("")).nodes.map((node: { stargazerCount: number }) => node.stargazerCount);
    expect(stars).toEqual([...stars].sort((a, b) => b - a));
  });

  it("filters by creation date in range and comparison forms alike", async () => {
    const low = parseDay("2025-03-01") as number;
    const high = parseDay("2025-06-30") as number;
    const expected = bruteForce((i) => {
      const created = Math.floor(sim.world.params.created[i] as number);
      return created >= low && created <= high;
    });
    expect((await search("created:2025-03-01..2025-06-30")).repositoryCount).toBe(expected);
    expect((await search("created:>=2025-03-01 created:<=2025-06-30")).repositoryCount).toBe(expected);
  });

  it("filters by topic and stars, and leaves forks out unless asked", async () => {
    const byTopic = await search("topic:rag stars:>=3");
    expect(byTopic.repositoryCount).toBe(
      bruteForce((i) => topicNames(sim.world, i).includes("rag") && m.stars(sim.world, i, NOW) >= 3),
    );
    expect(byTopic.nodes.every((node: { stargazerCount: number }) => node.stargazerCount >= 3)).toBe(true);
    const forks = await search("fork:only");
    expect(forks.repositoryCount).toBeGreaterThan(0);
    expect(forks.nodes.every((node: { isFork: boolean }) => node.isFork)).toBe(true);
    expect((await search("fork:true")).repositoryCount).toBe(bruteForce(() => true) + forks.repositoryCount);
    expect(
      (await search("archived:true")).nodes.every((node: { isArchived: boolean }) => node.isArchived),
    ).toBe(true);
  });

  it("matches a quoted phrase in names and descriptions only with in:name,description, any case", async () => {
    // Independent of the sim's matcher: the phrase as whole words of the description or the name.
    const phrase = /(^|[^a-z0-9])vector[^a-z0-9]+database([^a-z0-9]|$)/;
    const inText = (i: number) =>
      phrase.test((descriptionOf(sim.world, i) ?? "").toLowerCase()) ||
      phrase.test(sim.world.repoNameAt(i, NOW).toLowerCase());
    const expected = bruteForce(inText);
    const noTopic = bruteForce((i) => inText(i) && !topicNames(sim.world, i).includes("vector-database"));
    const result = await search('"Vector DATABASE" in:name,description');
    expect(result.repositoryCount).toBe(expected);
    expect([expected, noTopic]).toEqual([29, 2]);
    expect((await search('"vector database" in:topics')).repositoryCount).toBe(
      bruteForce((i) => topicNames(sim.world, i).includes("vector-database")),
    );
    // Without in: the topics count too; unquoted words may sit apart, in any order.
    expect((await search('"vector database"')).repositoryCount).toBe(
      bruteForce((i) => inText(i) || topicNames(sim.world, i).includes("vector-database")),
    );
    expect((await search("database vector in:description")).repositoryCount).toBe(
      bruteForce((i) => {
        const words = (descriptionOf(sim.world, i) ?? "").toLowerCase().split(/[^a-z0-9]+/);
        return words.includes("vector") && words.includes("database");
      }),
    );
  });

  it("matches free words in names and descriptions", async () => {
    const name = sim.world.repoName(1234).toLowerCase();
    const result = await search(name);
    expect(result.nodes.map((node: { nameWithOwner: string }) => node.nameWithOwner)).toContain(
      sim.world.fullName(1234),
    );
  });
});

describe("search(type: ISSUE)", () => {
  it("counts a repository's open pull requests like repository.pullRequests", async () => {
    const full = sim.world.fullName(10);
    const [owner, name] = full.split("/");
    const query = `query($q: String!, $owner: String!, $name: String!) { search(type: ISSUE, query: $q) { issueCount }
      repository(owner: $owner, name: $name) { pullRequests(states: OPEN) { totalCount } } }`;
    const reply = await postGraphql(sim.url, query, { q: `repo:${full} is:pr is:open`, owner, name });
    expect(reply.body.data.search.issueCount).toBe(reply.body.data.repository.pullRequests.totalCount);
  });
});
