// Discovery's search strings (topics and keyword phrases), its range splitting against an in-memory search
// that honours GitHub's 1,000-result cap, and its resume from saved ranges without a single query.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/clock.ts";
import { loadConfig } from "../../../core/config.ts";
import { silentLogger } from "../../../core/log.ts";
import { type BatchStore, openBatchStore } from "../../collect/batches.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import type { GithubClient } from "./client.ts";
import { discover, fullRange, SEARCH_RESULT_CAP, sliceId, sliceQuery, splitSlice } from "./discover.ts";
import type { SearchTerm } from "./topics.ts";

const topic = (value: string): SearchTerm => ({ kind: "topic", value });
const keyword = (value: string): SearchTerm => ({ kind: "keyword", value });
const rag = topic("rag");

describe("search ranges", () => {
  const all = fullRange(rag, "2026-03-01");

  it("cover the whole history up to the end of the run date, written as dates", () => {
    expect(sliceQuery(all)).toBe("topic:rag fork:true created:2007-10-01..2026-03-01");
    expect(sliceId(all)).toBe("search.rag.20071001-20260301");
  });

  it("search a keyword as a phrase in names and descriptions, under an id no topic can have", () => {
    const phrase = fullRange(keyword("vector database"), "2026-03-01", "2026-02-28");
    expect(sliceQuery(phrase)).toBe(
      '"vector database" in:name,description fork:true created:2026-02-28..2026-03-01',
    );
    expect(sliceId(phrase)).toBe("search.keyword.vector_database.20260228-20260301");
    expect(sliceId(fullRange(topic("keyword"), "2026-03-01", "2026-02-28"))).toBe(
      "search.keyword.20260228-20260301",
    );
    const [a, b] = splitSlice(phrase) ?? [];
    expect([a && sliceQuery(a), b && sliceId(b)]).toEqual([
      '"vector database" in:name,description fork:true created:2026-02-28..2026-02-28',
      "search.keyword.vector_database.20260301-20260301",
    ]);
  });

  it("split at a day boundary while they span days, then by seconds", () => {
    const [a, b] =
      splitSlice({
        term: rag,
        from: Date.parse("2026-01-01T00:00:00Z") / 1000,
        to: Date.parse("2026-01-04T23:59:59Z") / 1000,
      }) ?? [];
    expect([a && sliceQuery(a), b && sliceQuery(b)]).toEqual([
      "topic:rag fork:true created:2026-01-01..2026-01-02",
      "topic:rag fork:true created:2026-01-03..2026-01-04",
    ]);
    const day = {
      term: rag,
      from: Date.parse("2026-01-01T00:00:00Z") / 1000,
      to: Date.parse("2026-01-01T23:59:59Z") / 1000,
    };
    const [am, pm] = splitSlice(day) ?? [];
    expect([am && sliceQuery(am), pm && sliceQuery(pm)]).toEqual([
      "topic:rag fork:true created:2026-01-01T00:00:00Z..2026-01-01T12:00:00Z",
      "topic:rag fork:true created:2026-01-01T12:00:00Z..2026-01-02T00:00:00Z",
    ]);
    expect(am && sliceId(am)).toBe("search.rag.20260101T000000-20260101T115959");
    expect(splitSlice({ term: rag, from: 5, to: 5 })).toBeUndefined();
  });
});

/**
 * A fake GitHub search over repositories with creation times, answering like GitHub (cap, pages of 100).
 * `term` is what finds a repository: a topic, or a keyword in quotes.
 */
function fakeSearch(repos: { id: string; term: string; created: number }[]) {
  const queries: string[] = [];
  const client: GithubClient = {
    async query(_document, variables, schema) {
      const q = String(variables.q);
      queries.push(`${q} after=${variables.after ?? ""}`);
      const m = /^(?:topic:(\S+)|("[^"]+") in:name,description) fork:true created:(\S+)\.\.(\S+)$/.exec(q);
      if (!m) throw new Error(`bad query ${q}`);
      const at = (s: string, end: boolean) =>
        Date.parse(s.length === 10 ? `${s}T${end ? "23:59:59" : "00:00:00"}Z` : s) / 1000;
      const [from, to] = [at(m[3] as string, false), at(m[4] as string, true)];
      const term = m[1] ?? m[2];
      const hits = repos.filter((r) => r.term === term && r.created >= from && r.created <= to);
      const offset = Number(variables.after ?? 0);
      const page = hits.slice(offset, Math.min(offset + 100, SEARCH_RESULT_CAP));
      const next = offset + 100 < Math.min(hits.length, SEARCH_RESULT_CAP);
      return schema.parse({
        data: {
          search: {
            repositoryCount: hits.length,
            pageInfo: { hasNextPage: next, endCursor: next ? String(offset + 100) : null },
            nodes: page.map((r) => ({ id: r.id, nameWithOwner: `o/${r.id}` })),
          },
          rateLimit: { cost: 1, remaining: 4000 },
        },
      });
    },
  };
  return { client, queries };
}

let stateDir = "";
let batches: BatchStore;
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-discover-"));
  batches = openBatchStore(stateDir, "2026-03-01");
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

function context(): CollectContext & { skipped: number } {
  const config = loadConfig({ overrides: { stateDir } });
  const ctx = {
    config,
    urls: sourceUrls(config),
    http: undefined as never,
    logger: silentLogger,
    clock: fixedClock("2026-03-01T03:00:00Z"),
    sleep: async () => {},
    runDate: "2026-03-01",
    batches,
    repos: [],
    skipped: 0,
    count(what: string, n = 1) {
      if (what === "skipped") ctx.skipped += n;
    },
    async quarantine() {},
    history: { latest: async () => [] },
  };
  return ctx;
}

async function run(ctx: CollectContext, client: GithubClient, terms: SearchTerm[]) {
  const found = new Map<string, string>();
  const yielded: string[] = [];
  for await (const item of discover(ctx, client, terms, found)) {
    if ("rows" in item) await batches.write("github", item.id, item.rows);
    yielded.push("resumed" in item ? `resumed ${item.id}` : item.id);
  }
  return { found, yielded };
}

describe("discover", () => {
  // 2,600 "rag" repositories: 1,500 created on one day (more than the cap, so that day is split by the
  // hour), the rest spread over 2024; 30 "mcp" ones, 10 of them also tagged rag (same node ids).
  const busyDay = Date.parse("2025-06-01T00:00:00Z") / 1000;
  const repos = [
    ...Array.from({ length: 1500 }, (_, i) => ({
      id: `R_busy${i}`,
      term: "rag",
      created: busyDay + i * 50,
    })),
    ...Array.from({ length: 1100 }, (_, i) => ({
      id: `R_2024_${i}`,
      term: "rag",
      created: Date.parse("2024-01-01T00:00:00Z") / 1000 + i * 27_000,
    })),
    ...Array.from({ length: 30 }, (_, i) => ({
      id: i < 10 ? `R_busy${i}` : `R_mcp${i}`,
      term: "mcp",
      created: busyDay + i * 50,
    })),
  ];

  it("finds every repository despite the 1,000-result cap, once each", async () => {
    const { client, queries } = fakeSearch(repos);
    const ctx = context();
    const { found, yielded } = await run(ctx, client, [rag, topic("mcp")]);
    expect(found.size).toBe(2620);
    expect(ctx.skipped).toBe(0);
    expect(yielded).toContain("search.rag.20250601T000000-20250601T115959");
    expect(yielded[0]).toBe("search.rag.20071001-20260301");
    // One first page per searched range, each further page once, nothing asked twice.
    expect(queries.filter((q) => q.endsWith("after=")).length).toBe(yielded.length);
    expect(new Set(queries).size).toBe(queries.length);
    // 30 ranges searched (rag split down to half-days around the busy day) + 24 further pages:
    // 510 and 590 repositories in the 2024 ranges (5 + 5), 864 and 636 in the busy half-days (8 + 6).
    expect([yielded.length, queries.length]).toEqual([30, 54]);
  });

  it("slices a keyword search like a topic's, under its own batch ids, one entry per repository", async () => {
    // 1,200 repositories naming "vector database" in March 2025 (over the cap), 10 of them also tagged rag.
    const march = Date.parse("2025-03-01T00:00:00Z") / 1000;
    const phrased = Array.from({ length: 1200 }, (_, i) => ({
      id: i < 10 ? `R_busy${i}` : `R_vdb${i}`,
      term: '"vector database"',
      created: march + i * 2000,
    }));
    const { client, queries } = fakeSearch([...repos, ...phrased]);
    const ctx = context();
    const { found, yielded } = await run(ctx, client, [rag, keyword("vector database")]);
    expect(found.size).toBe(2600 + 1190);
    expect(ctx.skipped).toBe(0);
    const keywordIds = yielded.filter((id) => id.startsWith("search.keyword.vector_database."));
    expect(keywordIds.slice(0, 3)).toEqual([
      "search.keyword.vector_database.20071001-20260301",
      "search.keyword.vector_database.20071001-20161214",
      "search.keyword.vector_database.20161215-20260301",
    ]);
    expect(new Set(yielded).size).toBe(yielded.length);
    // 17 ranges (8 split, 9 searched) and 11 further pages: the two ranges holding the repositories hold
    // 994 (2025-02-26..03-23) and 206 (03-24..04-19), so 9 + 2 further pages.
    expect([keywordIds.length, queries.filter((q) => q.startsWith('"')).length]).toEqual([17, 28]);
    expect(queries).toContain(
      '"vector database" in:name,description fork:true created:2007-10-01..2026-03-01 after=',
    );
    expect(new Set(queries).size).toBe(queries.length);
  });

  it("replays saved ranges on a resumed run without a single query", async () => {
    const first = fakeSearch(repos);
    const before = await run(context(), first.client, [rag, topic("mcp")]);
    const again = fakeSearch(repos);
    const after = await run(context(), again.client, [rag, topic("mcp")]);
    expect(again.queries).toEqual([]);
    expect([...after.found.keys()].sort()).toEqual([...before.found.keys()].sort());
    expect(after.yielded.every((y) => y.startsWith("resumed "))).toBe(true);
  });
});
