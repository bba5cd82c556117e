// arXiv collect against the simulator over real sockets, in both feed formats (the sim serves the old one
// before 2026-03-01 and the new backend's from then): every cited paper published by the run date is read,
// 50 ids a request, tied to the repository whose model cites it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { paperPublished } from "../../../sim/arxiv/feed.ts";
import { startSimServer } from "../../../sim/index.ts";
import { linksOf } from "../../../sim/links.ts";
import { rowsOf, runCollect, testContext } from "../testing.ts";
import { arxiv, IDS_PER_REQUEST } from "./index.ts";

describe.each([
  ["2026-02-15", "http"],
  ["2026-03-01", "https"],
])("arxiv collect against the simulator on %s", (runDate, scheme) => {
  it(`reads every published cited paper (${scheme} links)`, async () => {
    const today = Date.parse(`${runDate}T00:00:00Z`) / 86_400_000;
    const sim = await startSimServer({ repos: 1000, seed: 11, date: runDate, port: 0 });
    const stateDir = await mkdtemp(path.join(tmpdir(), "arxiv-sim-"));
    try {
      const { world } = sim;
      const cited: { repo_full_name: string; arxiv_ids: string[] }[] = [];
      const expected: Record<string, string[]> = {};
      for (let i = 0; i < world.size; i++) {
        const id = linksOf(world).arxivId(i);
        if (!id) continue;
        const repo = world.fullName(i).toLowerCase();
        cited.push({ repo_full_name: repo, arxiv_ids: [id] });
        if (paperPublished(world, i, id) <= today) expected[id] = [repo];
      }
      expect(Object.keys(expected).length).toBeGreaterThan(IDS_PER_REQUEST);

      const { ctx, quarantined, slept } = testContext({
        stateDir,
        runDate,
        urls: { arxiv: `${sim.url}/arxiv` },
        repos: [],
        simulated: true,
      });
      await ctx.batches.write("huggingface", "raw_hf_models.00000", cited);
      const rows = rowsOf(await runCollect(arxiv, ctx), "raw_arxiv_papers.");
      expect(Object.fromEntries(rows.map((r) => [r.arxiv_id, r.repo_full_names]))).toEqual(expected);
      expect(
        rows.every((r) => String(r.abs_url).startsWith(`${scheme}://arxiv.org/abs/${r.arxiv_id}v`)),
      ).toBe(true);
      expect(ctx.http.stats().bySource.arxiv?.requests).toBe(Math.ceil(cited.length / IDS_PER_REQUEST));
      expect([quarantined, slept]).toEqual([[], []]);
    } finally {
      await sim.close();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
