// Hugging Face collect against the simulator over real sockets: every model of a tracked repository's
// owner is found by author, tied to its repository through the README link, with the sim's downloads
// and the arXiv id its tags cite.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelCreated, modelInfo } from "../../../sim/huggingface/model-info.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { linksOf } from "../../../sim/links.ts";
import { rowsOf, runCollect, simRepoRefs, testContext } from "../testing.ts";
import { huggingface } from "./index.ts";
import { modelInfoSchema } from "./schemas.ts";

const RUN_DATE = "2026-03-01";
const TODAY = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let stateDir: string;

beforeAll(async () => {
  sim = await startSimServer({ repos: 300, seed: 11, date: RUN_DATE, port: 0 });
  stateDir = await mkdtemp(path.join(tmpdir(), "hf-sim-"));
});
afterAll(async () => {
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe("huggingface collect against the simulator", () => {
  it("keeps every published model of tracked repositories, linked by its README", async () => {
    const { world } = sim;
    const links = linksOf(world);
    const refs = simRepoRefs(world);
    const expected: Record<string, [string, number, string[]]> = {};
    refs.forEach((ref, i) => {
      links.modelIds(i).forEach((id, k) => {
        if (modelCreated(world, i, k) > TODAY) return;
        const arxiv = links.arxivId(i);
        expected[id] = [
          ref.full_name.toLowerCase(),
          modelInfo(world, i, k, TODAY).downloads,
          arxiv ? [arxiv] : [],
        ];
      });
    });
    expect(Object.keys(expected).length).toBeGreaterThan(10);

    const { ctx, quarantined } = testContext({
      stateDir,
      runDate: RUN_DATE,
      urls: { huggingface: `${sim.url}/huggingface` },
      repos: refs,
      simulated: true,
    });
    const rows = rowsOf(await runCollect(huggingface, ctx), "raw_hf_models.");
    expect(
      Object.fromEntries(rows.map((r) => [r.model_id, [r.repo_full_name, r.downloads, r.arxiv_ids]])),
    ).toEqual(expected);
    expect(new Set(rows.map((r) => r.matched_by))).toEqual(new Set(["readme"]));
    expect(quarantined).toEqual([]);
  });

  it("follows the 307 a legacy model id answers with, to the canonical model", async () => {
    const { world } = sim;
    const links = linksOf(world);
    const legacy = Array.from({ length: world.size }, (_, i) => world.repoName(i).toLowerCase())
      .map((name) => (name.includes("-") ? name : `${name}-model`))
      .find((bare) => links.legacyModel(bare) !== undefined) as string;
    const canonical = links.legacyModel(legacy) as string;
    const { ctx } = testContext({ stateDir, runDate: RUN_DATE, urls: {}, repos: [] });
    const result = await ctx.http.request(`${sim.url}/huggingface/api/models/${legacy}`, {
      source: "huggingface",
    });
    ctx.http.close();
    expect([result.status, result.decision, modelInfoSchema.parse(result.body).id]).toEqual([
      200,
      "ok",
      canonical,
    ]);
  });
});
