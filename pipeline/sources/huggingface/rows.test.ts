// Hugging Face: recorded model infos parse and map to exact rows; the recorded 307 names the canonical id;
// card links and names tie models to tracked repositories.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { header } from "../../collect/http-decision.ts";
import { matchModel } from "./index.ts";
import { arxivIdsOf, githubReposOf, modelIdOfLocation } from "./links.ts";
import { toRows } from "./rows.ts";
import { modelInfoSchema, modelListSchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/huggingface");
const read = (file: string) => JSON.parse(readFileSync(path.join(REAL, file), "utf8"));
const model = (stem: string) => modelInfoSchema.parse(read(`model-info.${stem}.2025-01.json`));
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("huggingface toRows", () => {
  it("maps google-bert/bert-base-uncased (one arxiv tag)", () => {
    expect(
      toRows(
        { model: model("google-bert-bert-base-uncased"), repo: "google-research/bert", matchedBy: "name" },
        meta,
      ),
    ).toEqual([
      {
        run_date: "2026-03-01",
        model_id: "google-bert/bert-base-uncased",
        repo_full_name: "google-research/bert",
        matched_by: "name",
        author: "google-bert",
        downloads: 72376843,
        likes: 2065,
        tags: [
          "transformers",
          "pytorch",
          "tf",
          "jax",
          "rust",
          "coreml",
          "onnx",
          "safetensors",
          "bert",
          "fill-mask",
          "exbert",
          "en",
          "dataset:bookcorpus",
          "dataset:wikipedia",
          "arxiv:1810.04805",
          "license:apache-2.0",
          "autotrain_compatible",
          "endpoints_compatible",
          "region:us",
        ],
        pipeline_tag: "fill-mask",
        library_name: "transformers",
        license: "apache-2.0",
        arxiv_ids: ["1810.04805"],
        linked_repos: [],
        gated: false,
        created_at: "2022-03-02T23:29:04.000Z",
        last_modified: "2024-02-19T11:06:12.000Z",
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("maps stabilityai/stable-diffusion-2-1 (diffusers, three arxiv tags)", () => {
    const [row] = toRows(
      {
        model: model("stabilityai-stable-diffusion-2-1"),
        repo: "stability-ai/stablediffusion",
        matchedBy: "card",
      },
      meta,
    );
    expect(row).toMatchObject({
      model_id: "stabilityai/stable-diffusion-2-1",
      author: "stabilityai",
      downloads: 1015720,
      likes: 3928,
      pipeline_tag: "text-to-image",
      library_name: "diffusers",
      license: "openrail++",
      arxiv_ids: ["1910.09700", "2112.10752", "2202.00512"],
      created_at: "2022-12-06T17:24:51.000Z",
      last_modified: "2023-07-05T16:19:17.000Z",
    });
  });

  it("maps deepset/roberta-base-squad2 (model-index in the card, no arxiv tag)", () => {
    const [row] = toRows(
      { model: model("deepset-roberta-base-squad2"), repo: "deepset-ai/haystack", matchedBy: "name" },
      meta,
    );
    expect(row).toMatchObject({
      model_id: "deepset/roberta-base-squad2",
      downloads: 1801802,
      likes: 842,
      pipeline_tag: "question-answering",
      license: "cc-by-4.0",
      arxiv_ids: [],
      linked_repos: [],
      last_modified: "2024-09-24T15:48:47.000Z",
    });
  });

  it("reads the canonical id from the recorded 307's Location (plain-text body)", () => {
    const recorded = read("model-info.bert-base-uncased.307-redirect.2025-01.headers.json");
    const headers = Object.fromEntries(recorded.headers as [string, string][]);
    expect(recorded.status).toBe(307);
    expect(modelIdOfLocation(header(headers, "location") as string)).toBe("google-bert/bert-base-uncased");
    expect(modelInfoSchema.safeParse(recorded.body_text).success).toBe(false);
  });

  it("accepts a list by author and reports a model without an id by its path", () => {
    expect(modelListSchema.parse([{ id: "a/b", likes: 1, trendingScore: 0 }])).toEqual([{ id: "a/b" }]);
    expect(modelInfoSchema.safeParse({ downloads: 1 }).error?.issues[0]?.path).toEqual(["id"]);
  });
});

describe("model links", () => {
  it("finds GitHub repositories anywhere in the card data", () => {
    const cardData = {
      repo: "https://github.com/Owner/Repo",
      "model-index": [{ source: { url: "github.com/a/b/tree/main" } }],
    };
    expect(githubReposOf({ cardData })).toEqual(["a/b", "owner/repo"]);
    expect(githubReposOf({ cardData: null })).toEqual([]);
  });

  it("keeps arxiv ids unique and sorted", () => {
    expect(arxivIdsOf(["arxiv:2202.00512", "x", "arxiv:1910.09700", "arxiv:2202.00512"])).toEqual([
      "1910.09700",
      "2202.00512",
    ]);
  });

  it("ties a model to a card-linked tracked repository first, else to the owner's repository of its name", () => {
    const tracked = new Set(["acme/tool", "acme/bert"]);
    const acme = [{ node_id: "1", full_name: "Acme/BERT", owner: "Acme", name: "BERT" }];
    const links = (card: string[], readme: string[] = []) => ({ card, readme });
    expect(matchModel("acme/bert", links(["acme/tool"], ["acme/bert"]), tracked, acme)).toEqual({
      repo: "acme/tool",
      matchedBy: "card",
    });
    expect(matchModel("acme/gpt", links(["other/x"], ["acme/tool"]), tracked, acme)).toEqual({
      repo: "acme/tool",
      matchedBy: "readme",
    });
    expect(matchModel("acme/bert", links(["other/x"]), tracked, acme)).toEqual({
      repo: "acme/bert",
      matchedBy: "name",
    });
    expect(matchModel("acme/gpt", links([]), tracked, acme)).toBeUndefined();
  });
});
