// Hugging Face over a real socket: model info passes the same shape check as the recorded bodies, lists by
// author, legacy ids answer 307 like the recorded redirect, and cards link repositories and arXiv papers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { recordedHeaders } from "../github/rest-shapes.ts";
import { linksOf } from "../links.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, readRealFixture } from "../testing.ts";
import { modelCreated } from "./model-info.ts";

const modelShape = z.object({
  id: z.string(),
  downloads: z.number().int(),
  likes: z.number().int(),
  tags: z.array(z.string()),
  pipeline_tag: z.string().optional(),
  lastModified: z.string().optional(),
  createdAt: z.string().optional(),
});

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 4000, seed: 10, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

function publishedModel(withPaper: boolean): number {
  const links = linksOf(sim.world);
  return [...Array(sim.world.size).keys()].find(
    (i) =>
      links.modelIds(i).length > 0 &&
      Boolean(links.arxivId(i)) === withPaper &&
      modelCreated(sim.world, i, 0) < sim.clock.now(),
  ) as number;
}

describe("GET /huggingface/api/models/{id}", () => {
  it("answers in the shape of the recorded model info, citing the paper in its tags", async () => {
    for (const name of [
      "deepset-roberta-base-squad2",
      "google-bert-bert-base-uncased",
      "stabilityai-stable-diffusion-2-1",
    ])
      modelShape.parse(readRealFixture(`huggingface/model-info.${name}.2025-01.json`));
    const i = publishedModel(true);
    const id = linksOf(sim.world).modelIds(i)[0] as string;
    const body = modelShape.parse((await fetchJson(`${sim.url}/huggingface/api/models/${id}`)).body);
    expect(body.id).toBe(id);
    expect(body.tags).toContain(`arxiv:${linksOf(sim.world).arxivId(i)}`);
    const card = await (await fetch(`${sim.url}/huggingface/${id}/raw/main/README.md`)).text();
    expect(card).toContain(`https://github.com/${sim.world.fullName(i)}`);
    expect(card).toContain(`https://arxiv.org/abs/${linksOf(sim.world).arxivId(i)}`);
  });

  it("lists an author's models and answers unknown ids with 404", async () => {
    const i = publishedModel(false);
    const author = (linksOf(sim.world).modelIds(i)[0] as string).split("/")[0];
    const list = await fetchJson(`${sim.url}/huggingface/api/models?author=${author}`);
    expect(
      z
        .array(modelShape)
        .parse(list.body)
        .map((model) => model.id),
    ).toContain(linksOf(sim.world).modelIds(i)[0]);
    expect((await fetchJson(`${sim.url}/huggingface/api/models/nobody/nothing`)).status).toBe(404);
  });

  it("redirects a legacy id with 307 like the recorded answer", async () => {
    const recorded = recordedHeaders(
      readRealFixture("huggingface/model-info.bert-base-uncased.307-redirect.2025-01.headers.json"),
    );
    expect([recorded.status, recorded.headers.get("location")]).toEqual([
      307,
      "/api/models/google-bert/bert-base-uncased",
    ]);
    const links = linksOf(sim.world);
    const legacy = links.legacyIds[0] as string;
    const reply = await fetch(`${sim.url}/huggingface/api/models/${legacy}`, { redirect: "manual" });
    expect(reply.status).toBe(307);
    expect(reply.headers.get("location")).toBe(`/huggingface/api/models/${links.legacyModel(legacy)}`);
  });
});
