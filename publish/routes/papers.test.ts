// GET /api/v1/papers: the papers collection rendered from the hand-made fixture and answered as the shim answers
// (newest first, projects most stars first, title search, domain filter over every domain of a paper, look-back in
// days), then the simulated world's release through the shim against its papers table, and the parameters refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paperSchema, papersParams, parseParams } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { answer, type PartitionData } from "../answer.ts";
import { decodeCollectionIndex } from "../collection-index.ts";
import { bodyBytes } from "../envelope.ts";
import { renderFixtureCollection } from "../testing.ts";
import { PAPERS_COLLECTION, papersRoute } from "./papers.ts";

const AGENTS = {
  arxiv_id: "2401.00001",
  title: "Agents all the way down",
  authors: ["A. Author"],
  summary: "Agents.",
  published_at: "2024-01-01T00:00:00Z",
  updated_at: "2024-01-02T00:00:00Z",
  primary_category: "cs.CL",
  categories: ["cs.CL"],
  abs_url: "https://arxiv.org/abs/2401.00001",
  pdf_url: "https://arxiv.org/pdf/2401.00001",
  domains: ["agents"],
  projects: [
    { full_name: "langchain-ai/langchain", slug: "langchain-ai--langchain", domain: "agents", stars: 110000 },
    { full_name: "acme/agentkit", slug: "acme--agentkit", domain: "agents", stars: 5000 },
  ],
};
const BOXES = {
  arxiv_id: "2402.00002",
  title: "Boxes of retrieval",
  authors: ["B. Author"],
  summary: "Retrieval.",
  published_at: "2024-02-01T00:00:00Z",
  updated_at: "2024-02-01T00:00:00Z",
  primary_category: "cs.IR",
  categories: ["cs.IR"],
  abs_url: "https://arxiv.org/abs/2402.00002",
  pdf_url: "https://arxiv.org/pdf/2402.00002",
  domains: ["rag"],
  projects: [{ full_name: "acme/ragbox", slug: "acme--ragbox", domain: "rag", stars: 1200 }],
};

describe("the papers collection", () => {
  let data: PartitionData;

  beforeAll(async () => {
    // 9 days after the newer paper, 40 after the older
    const files = await renderFixtureCollection(PAPERS_COLLECTION, "2024-02-10");
    data = {
      records: files.get("collections/papers/_all.json") as Buffer,
      index: decodeCollectionIndex(files.get("collections/papers/_all.idx") as Buffer),
    };
  });

  /** The answer to a query string, as the shim gives it. */
  async function ask(query: Record<string, string>) {
    const params = parseParams(papersParams, query);
    if (!params.ok) throw new Error(params.message);
    const result = await answer(papersRoute, params.value, async () => data);
    if (!result.found) throw new Error("not found");
    return JSON.parse(bodyBytes(result.body, "2024-02-10T00:00:00.000+00:00").toString());
  }

  it("lists every paper newest first, its projects most stars first", async () => {
    const body = await ask({});
    expect(body.data).toEqual([BOXES, AGENTS]);
    expect(body.meta).toMatchObject({
      count: 2,
      total: 2,
      next_offset: null,
      query: { limit: 20, offset: 0 },
    });
    for (const paper of body.data) expect(paperSchema.safeParse(paper).success).toBe(true);
  });

  it("searches titles, filters by domain and pages", async () => {
    expect((await ask({ q: "RETRIEVAL" })).data).toEqual([BOXES]);
    expect((await ask({ q: "agents all the way down" })).data).toEqual([AGENTS]);
    expect((await ask({ q: "diffusion" })).meta).toMatchObject({ count: 0, total: 0 });
    expect((await ask({ domain: "agents" })).data).toEqual([AGENTS]);
    expect((await ask({ domain: "rag", q: "agents" })).data).toEqual([]);
    const page = await ask({ limit: "1", offset: "1" });
    expect(page.data).toEqual([AGENTS]);
    expect(page.meta).toMatchObject({ count: 1, total: 2, next_offset: null });
  });

  it("keeps the papers first published in the last `days` days when asked", async () => {
    expect((await ask({ days: "10" })).data).toEqual([BOXES]);
    expect((await ask({ days: "9" })).data).toEqual([]);
    expect((await ask({ days: "40" })).data).toEqual([BOXES]);
    const both = await ask({ days: "41" });
    expect(both.data).toEqual([BOXES, AGENTS]);
    expect(both.meta.query).toEqual({ days: 41, limit: 20, offset: 0 });
  });
});

describe("GET /api/v1/papers", () => {
  let sim: SimApp;
  beforeAll(async () => {
    sim = await sharedSimApp();
  }, 600_000);
  afterAll(() => sim?.close());

  it("answers the release's papers, newest first, each with its implementations, filtered by domain and title", async () => {
    const papers = await sim.db.all<{
      arxiv_id: string;
      title: string;
      domains: string[];
      full_names: string[];
    }>("SELECT arxiv_id, title, domains, full_names FROM papers ORDER BY published_at DESC, arxiv_id");
    expect(papers.length).toBeGreaterThan(2);
    const all = await sim.get("/api/v1/papers?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: { arxiv_id: string }) => p.arxiv_id)).toEqual(papers.map((p) => p.arxiv_id));
    expect(all.body.meta).toMatchObject({ count: papers.length, total: papers.length, next_offset: null });
    const first = papers[0] as (typeof papers)[0];
    expect(all.body.data[0].projects.map((p: { full_name: string }) => p.full_name).sort()).toEqual(
      [...first.full_names].sort(),
    );

    const domain = first.domains[0] as string;
    const inDomain = await sim.get(`/api/v1/papers?domain=${domain}&limit=100`);
    expect(inDomain.body.data.map((p: { arxiv_id: string }) => p.arxiv_id)).toEqual(
      papers.filter((p) => p.domains.includes(domain)).map((p) => p.arxiv_id),
    );
    const word = (first.title.split(/\s+/).find((w) => w.length > 4) ?? first.title).toLowerCase();
    const byTitle = await sim.get(`/api/v1/papers?q=${encodeURIComponent(word)}&limit=100`);
    expect(byTitle.body.data.map((p: { arxiv_id: string }) => p.arxiv_id)).toContain(first.arxiv_id);
    expect(byTitle.body.meta.query).toEqual({ q: word, limit: 100, offset: 0 });
  });

  it.each([
    ["days=91", "invalid_parameter", "days must be an integer from 1 to 90"],
    ["days=0", "invalid_parameter", "days must be an integer from 1 to 90"],
    ["limit=101", "invalid_parameter", "limit must be an integer from 1 to 100"],
    ["q=", "invalid_parameter", "q must be a non-empty text of at most 100 characters"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["author=x", "invalid_parameter", 'Unknown parameter "author"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/papers?${query}`, code, message);
  });
});
