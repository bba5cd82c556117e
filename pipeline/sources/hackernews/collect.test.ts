// Hacker News collect over real sockets against a small Algolia stand-in: a day with more stories than
// paging reaches is split until every story is seen; only stories linking tracked repositories are kept;
// a malformed page is quarantined with its URL and its day deferred; a second run refetches only that day.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, runCollect, testContext } from "../testing.ts";
import { HITS_PER_PAGE, hackernews, REACHABLE_HITS } from "./index.ts";

const RUN_DATE = "2026-03-01";
const DAY = Date.parse("2026-02-27T00:00:00Z") / 1000;
/** 1,500 stories on 2026-02-27 (one a minute), every 100th linking the tracked repository. */
const STORIES = Array.from({ length: 1500 }, (_, k) => ({
  objectID: String(40_000_000 + k),
  title: `Story ${k}`,
  url: k % 100 === 0 ? `https://github.com/Acme/Tool/issues/${k}` : `https://github.com/other/repo${k}`,
  author: "someone",
  points: k,
  num_comments: 1,
  created_at: new Date((DAY + k * 57) * 1000).toISOString(),
  created_at_i: DAY + k * 57,
}));
/** The day Algolia answers with a body of the wrong shape. */
const BROKEN_DAY = Date.parse("2026-02-20T00:00:00Z") / 1000;

let server: Server;
let base = "";
let stateDir = "";
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "", "http://x");
    const [since, until] = (
      /created_at_i>=(\d+),created_at_i<(\d+)/.exec(url.searchParams.get("numericFilters") ?? "") ?? []
    )
      .slice(1)
      .map(Number) as [number, number];
    const page = Number(url.searchParams.get("page"));
    res.writeHead(200, { "content-type": "application/json" });
    if (since === BROKEN_DAY) return void res.end(JSON.stringify({ hits: "none" }));
    const hits = STORIES.filter((s) => s.created_at_i >= since && s.created_at_i < until).sort(
      (a, b) => b.created_at_i - a.created_at_i,
    );
    // Like Algolia: nbHits counts everything, but pages stop at the first 1,000 hits.
    const nbPages = Math.min(Math.ceil(hits.length / HITS_PER_PAGE), REACHABLE_HITS / HITS_PER_PAGE);
    const slice = page < nbPages ? hits.slice(page * HITS_PER_PAGE, (page + 1) * HITS_PER_PAGE) : [];
    res.end(JSON.stringify({ hits: slice, nbHits: hits.length, page, nbPages, hitsPerPage: HITS_PER_PAGE }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stateDir = await mkdtemp(path.join(tmpdir(), "hn-collect-"));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});

const context = () =>
  testContext({
    stateDir,
    runDate: RUN_DATE,
    urls: { hackernews: base },
    repos: [{ node_id: "1", full_name: "acme/tool", owner: "acme", name: "tool" }],
  });

describe("hackernews collect", () => {
  it("splits a day holding more than 1,000 stories and keeps the 15 linking the tracked repository", async () => {
    const { ctx, quarantined } = context();
    const items = await runCollect(hackernews, ctx);
    expect(items).toHaveLength(30);
    expect(items.find((i) => "deferred" in i)).toEqual({
      id: "raw_hn_posts.2026-02-20",
      deferred: true,
      reason: "a search page of 2026-02-20 was malformed (quarantined)",
    });
    const rows = rowsOf(items, "raw_hn_posts.");
    expect(rows.map((r) => r.object_id)).toEqual(
      Array.from({ length: 15 }, (_, k) => String(40_000_000 + k * 100)),
    );
    expect(rows[14]).toEqual({
      run_date: RUN_DATE,
      object_id: "40001400",
      title: "Story 1400",
      url: "https://github.com/Acme/Tool/issues/1400",
      repo_full_name: "acme/tool",
      points: 1400,
      num_comments: 1,
      created_at: "2026-02-27T22:10:00.000Z",
      author: "someone",
      fetched_at: "2026-03-01T04:00:00.000Z",
    });
    expect(
      quarantined.map((q) => [q.url.includes(`created_at_i%3E%3D${BROKEN_DAY}`), q.error.issues[0]?.path]),
    ).toEqual([[true, ["hits"]]]);
    // 28 quiet days and the broken one answer in one request; the busy day takes 1 + 2 halves of 8 pages.
    expect(requests).toHaveLength(29 + 1 + 16);

    requests.length = 0;
    const again = await runCollect(hackernews, context().ctx);
    expect(again.filter((item) => !("resumed" in item)).map((i) => i.id)).toEqual([
      "raw_hn_posts.2026-02-20",
    ]);
    expect(requests).toHaveLength(1);
  });
});
