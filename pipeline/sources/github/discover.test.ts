// Discovery's range splitting against an in-memory search that honours GitHub's 1,000-result cap,
// and its resume from saved ranges without a single query.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BatchStore, openBatchStore } from "../../core/batches.ts";
import { fixedClock } from "../../core/clock.ts";
import { loadConfig } from "../../core/config.ts";
import { silentLogger } from "../../core/log.ts";
import type { CollectContext } from "../types.ts";
import { sourceUrls } from "../urls.ts";
import type { GithubClient } from "./client.ts";
import { discover, fullRange, SEARCH_RESULT_CAP, sliceId, sliceQuery, splitSlice } from "./discover.ts";

describe("search ranges", () => {
  const all = fullRange("rag", "2026-03-01");

  it("cover the whole history up to the end of the run date, written as dates", () => {
    expect(sliceQuery(all)).toBe("topic:rag fork:true created:2007-10-01..2026-03-01");
    expect(sliceId(all)).toBe("search.rag.20071001-20260301");
  });

  it("split at a day boundary while they span days, then by seconds", () => {
    const [a, b] =
      splitSlice({
        topic: "rag",
        from: Date.parse("2026-01-01T00:00:00Z") / 1000,
        to: Date.parse("2026-01-04T23:59:59Z") / 1000,
      }) ?? [];
    expect([a && sliceQuery(a), b && sliceQuery(b)]).toEqual([
      "topic:rag fork:true created:2026-01-01..2026-01-02",
      "topic:rag fork:true created:2026-01-03..2026-01-04",
    ]);
    const day = {
      topic: "rag",
      from: Date.parse("2026-01-01T00:00:00Z") / 1000,
      to: Date.parse("2026-01-01T23:59:59Z") / 1000,
    };
    const [am, pm] = splitSlice(day) ?? [];
    expect([am && sliceQuery(am), pm && sliceQuery(pm)]).toEqual([
      "topic:rag fork:true created:2026-01-01T00:00:00Z..2026-01-01T12:00:00Z",
      "topic:rag fork:true created:2026-01-01T12:00:00Z..2026-01-02T00:00:00Z",
    ]);
    expect(am && sliceId(am)).toBe("search.rag.20260101T000000-20260101T115959");
    expect(splitSlice({ topic: "rag", from: 5, to: 5 })).toBeUndefined();
  });
});

/** A fake GitHub search over repositories with creation times, answering like GitHub (cap, pages of 100). */
function fakeSearch(repos: { id: string; topic: string; created: number }[]) {
  const queries: string[] = [];
  const client: GithubClient = {
    async query(_document, variables, schema) {
      const q = String(variables.q);
      queries.push(`${q} after=${variables.after ?? ""}`);
      const m = /^topic:(\S+) fork:true created:(\S+)\.\.(\S+)$/.exec(q);
      if (!m) throw new Error(`bad query ${q}`);
      const at = (s: string, end: boolean) =>
        Date.parse(s.length === 10 ? `${s}T${end ? "23:59:59" : "00:00:00"}Z` : s) / 1000;
      const [from, to] = [at(m[2] as string, false), at(m[3] as string, true)];
      const hits = repos.filter((r) => r.topic === m[1] && r.created >= from && r.created <= to);
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

async function run(ctx: CollectContext, client: GithubClient, topics: string[]) {
  const found = new Map<string, string>();
  const yielded: string[] = [];
  for await (const item of discover(ctx, client, topics, found)) {
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
      topic: "rag",
      created: busyDay + i * 50,
    })),
    ...Array.from({ length: 1100 }, (_, i) => ({
      id: `R_2024_${i}`,
      topic: "rag",
      created: Date.parse("2024-01-01T00:00:00Z") / 1000 + i * 27_000,
    })),
    ...Array.from({ length: 30 }, (_, i) => ({
      id: i < 10 ? `R_busy${i}` : `R_mcp${i}`,
      topic: "mcp",
      created: busyDay + i * 50,
    })),
  ];

  it("finds every repository despite the 1,000-result cap, once each", async () => {
    const { client, queries } = fakeSearch(repos);
    const ctx = context();
    const { found, yielded } = await run(ctx, client, ["rag", "mcp"]);
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

  it("replays saved ranges on a resumed run without a single query", async () => {
    const first = fakeSearch(repos);
    const before = await run(context(), first.client, ["rag", "mcp"]);
    const again = fakeSearch(repos);
    const after = await run(context(), again.client, ["rag", "mcp"]);
    expect(again.queries).toEqual([]);
    expect([...after.found.keys()].sort()).toEqual([...before.found.keys()].sort());
    expect(after.yielded.every((y) => y.startsWith("resumed "))).toBe(true);
  });
});
