// arXiv collect over real sockets against a small Atom stand-in: ids come from GitHub descriptions and
// homepages and from Hugging Face models' tags, 50 per request, three seconds apart against the real API;
// a feed that is not Atom is quarantined and its batch deferred, and the next run fetches only that batch.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, runCollect, testContext } from "../testing.ts";
import { arxiv, IDS_PER_REQUEST, REQUEST_INTERVAL_MS } from "./index.ts";

const RUN_DATE = "2026-03-01";
/** 2401.00000 … 2401.00059: the first 59 cited by acme/tool's description, the last by a model card. */
const IDS = Array.from({ length: 60 }, (_, k) => `2401.${String(k).padStart(5, "0")}`);

function entry(id: string): string {
  return `<entry><id>http://arxiv.org/abs/${id}v2</id><title>Paper
  ${id}</title><updated>2024-02-01T00:00:00Z</updated><published>2024-01-05T00:00:00Z</published>
  <summary>About ${id}.</summary><author><name>A. Author</name></author>
  <link href="https://arxiv.org/abs/${id}v2" rel="alternate" type="text/html"/>
  <link href="https://arxiv.org/pdf/${id}v2" rel="related" type="application/pdf" title="pdf"/>
  <arxiv:primary_category term="cs.LG"/><category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/></entry>`;
}

let server: Server;
let base = "";
let stateDir = "";
let brokenOnce = true;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const ids = (new URL(req.url ?? "", "http://x").searchParams.get("id_list") ?? "").split(",");
    res.writeHead(200, { "content-type": "application/atom+xml; charset=utf-8" });
    if (ids.length < IDS_PER_REQUEST && brokenOnce) {
      brokenOnce = false;
      return void res.end("<html><body>Rate exceeded.</body></html>");
    }
    res.end(
      `<?xml version='1.0' encoding='UTF-8'?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">${ids.map(entry).join("")}</feed>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stateDir = await mkdtemp(path.join(tmpdir(), "arxiv-collect-"));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});

const context = () =>
  testContext({ stateDir, runDate: RUN_DATE, urls: { arxiv: base }, repos: [], simulated: false });

describe("arxiv collect", () => {
  it("fetches linked papers 50 ids a request, politely, and defers a batch whose feed was malformed", async () => {
    const first = context();
    const description = IDS.slice(0, 59)
      .map((id) => `https://arxiv.org/abs/${id}`)
      .join(" ");
    await first.ctx.batches.write("github", "raw_github_repos.00000", [
      { full_name: "Acme/Tool", description, homepage: null },
      { full_name: "acme/site", description: null, homepage: "https://arxiv.org/pdf/2401.00000v3" },
    ]);
    await first.ctx.batches.write("huggingface", "raw_hf_models.00000", [
      { repo_full_name: "acme/tool", arxiv_ids: ["2401.00059", "not-an-id"] },
    ]);
    const items = await runCollect(arxiv, first.ctx);
    expect(items.map((i) => ["deferred" in i, i.id])).toEqual([
      [false, "raw_arxiv_papers.00000"],
      [true, "raw_arxiv_papers.00001"],
    ]);
    const rows = rowsOf(items, "raw_arxiv_papers.");
    expect(rows).toHaveLength(50);
    expect(rows[0]).toEqual({
      run_date: RUN_DATE,
      arxiv_id: "2401.00000",
      version: 2,
      repo_full_names: ["acme/site", "acme/tool"],
      title: "Paper 2401.00000",
      summary: "About 2401.00000.",
      authors: ["A. Author"],
      published_at: "2024-01-05T00:00:00Z",
      updated_at: "2024-02-01T00:00:00Z",
      primary_category: "cs.LG",
      categories: ["cs.LG"],
      abs_url: "https://arxiv.org/abs/2401.00000v2",
      pdf_url: "https://arxiv.org/pdf/2401.00000v2",
      doi: null,
      comment: null,
      fetched_at: "2026-03-01T04:00:00.000Z",
    });
    expect(first.quarantined.map((q) => q.error.issues[0]?.message)).toEqual([
      "expected an Atom <feed>, got <html>",
    ]);
    expect(first.slept).toEqual([REQUEST_INTERVAL_MS]);

    requests.length = 0;
    const again = context();
    const rerun = await runCollect(arxiv, again.ctx);
    expect(rerun.map((i) => ("resumed" in i ? "resumed" : i.id))).toEqual([
      "resumed",
      "raw_arxiv_papers.00001",
    ]);
    expect(rowsOf(rerun, "raw_arxiv_papers.").map((r) => [r.arxiv_id, r.repo_full_names])).toEqual(
      IDS.slice(50).map((id) => [id, ["acme/tool"]]),
    );
    expect(requests).toHaveLength(1);
    expect(again.slept).toEqual([]);
  });
});
