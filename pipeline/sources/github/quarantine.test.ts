// GitHub details with damaged answers, through collect with a stand-in HTTP client: a malformed repository
// node is quarantined and carried forward as stale while the rest of its batch is stored; an answer that
// stays malformed when asked again defers its whole batch (nothing saved, fetched again next invocation).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/clock.ts";
import { loadConfig } from "../../../core/config.ts";
import { openDb } from "../../../core/db.ts";
import { silentLogger } from "../../../core/log.ts";
import type { HttpClient, HttpResult, RequestOptions } from "../../collect/http.ts";
import { openQuarantine } from "../../collect/quarantine.ts";
import { type CollectReport, collect } from "../../collect.ts";
import { github } from "./index.ts";

const RUN_DATE = "2026-03-01";
const details = JSON.parse(
  await readFile(path.join(import.meta.dirname, "testdata", "details.nodes-3.json"), "utf8"),
);
const [ragkit, , emptyAgent] = details.data.nodes;
const GONE = "R_kgDOGoneXX";
const IDS = [ragkit.id, GONE, emptyAgent.id].sort();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Answers search with the three ids, and details through `damage` (which may spoil the answer). */
function standIn(damage: (answer: Record<string, unknown>) => Record<string, unknown>) {
  let requests = 0;
  const http: HttpClient = {
    async request(url: string, options: RequestOptions): Promise<HttpResult> {
      requests++;
      const { query, variables } = options.json as { query: string; variables: { ids?: string[] } };
      const rateLimit = { cost: 1, remaining: 4000, resetAt: "2026-03-01T06:00:00Z" };
      const body = query.includes("search(")
        ? {
            data: {
              search: {
                repositoryCount: 3,
                pageInfo: { hasNextPage: false, endCursor: null },
                nodes: IDS.map((id) => ({ id, nameWithOwner: `o/${id}` })),
              },
              rateLimit,
            },
          }
        : damage({
            data: {
              nodes: (variables.ids ?? []).map((id) =>
                id === GONE ? null : id === ragkit.id ? ragkit : emptyAgent,
              ),
              rateLimit,
            },
          });
      return { url, status: 200, decision: "ok", reason: "200", headers: {}, body };
    },
    stats: () => ({ bySource: { github: { requests, not_modified: 0, retries: 0 } }, byHost: {} }),
    close() {},
  };
  return http;
}

async function run(http: HttpClient): Promise<{ report: CollectReport; stateDir: string; rows: unknown[] }> {
  const stateDir = await mkdtemp(path.join(tmpdir(), "projintel-gh-quarantine-"));
  dirs.push(stateDir);
  const config = loadConfig({
    overrides: { stateDir, github: { topics: ["rag"], keywords: [], tokens: ["t1"] } },
  });
  const db = await openDb(":memory:");
  try {
    const report = await collect({
      config,
      db,
      http,
      logger: silentLogger,
      runDate: RUN_DATE,
      stateDir,
      clock: fixedClock("2026-03-01T03:00:00Z"),
      sleep: async () => {},
      sources: [github],
    });
    const rows = await db
      .all<{ node_id: string }>("SELECT node_id FROM raw_github_repos ORDER BY node_id")
      .catch(() => []);
    return { report, stateDir, rows };
  } finally {
    db.close();
  }
}

describe("github details with malformed answers", () => {
  it("quarantines a malformed repository node and stores the rest of its batch", async () => {
    const { report, stateDir, rows } = await run(
      standIn((answer) => {
        const data = answer.data as { nodes: ({ id: string } | null)[] };
        return {
          ...answer,
          data: {
            ...data,
            nodes: data.nodes.map((n) => (n?.id === emptyAgent.id ? { ...n, stargazerCount: "3x" } : n)),
          },
        };
      }),
    );
    const source = report.sources[0];
    expect([source?.status, source?.rows, source?.skipped, source?.quarantined]).toEqual(["ok", 1, 1, 1]);
    expect(rows).toEqual([{ node_id: ragkit.id }]);
    expect([report.repos_total, report.repos_refreshed, report.repos_stale, report.quarantined]).toEqual([
      3, 1, 1, 1,
    ]);
    const [file] = await openQuarantine(stateDir, RUN_DATE).list("github");
    const entry = JSON.parse(await readFile(file ?? "", "utf8"));
    expect(entry).toMatchObject({
      source: "github",
      url: `https://api.github.com/graphql#nodes:${emptyAgent.id}`,
      issues: [{ path: "stargazerCount", message: expect.any(String) }],
      payload: { id: emptyAgent.id, stargazerCount: "3x" },
    });
  });

  it("asks again, then defers a batch whose whole answer stays malformed, and never stops the run", async () => {
    const { report, rows } = await run(
      standIn((answer) => ({ ...answer, data: { ...(answer.data as object), nodes: "broken" } })),
    );
    const source = report.sources[0];
    expect(source).toMatchObject({
      status: "ok",
      rows: 0,
      batches_deferred: 1,
      quarantined: 1,
      // 1 search + 3 attempts at the details batch
      requests: 4,
    });
    expect(rows).toEqual([]);
    expect([report.repos_total, report.repos_refreshed, report.repos_stale]).toEqual([3, 0, 3]);
  });
});
