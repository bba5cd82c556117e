// `sources verify` with this connector's hook over test/fixtures/real/huggingface: every recorded body is read or
// turned into the right decision, none fails.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRecorded } from "../../verify.ts";
import { parseHuggingfaceRecorded } from "./recorded.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real");

describe("huggingface recorded responses", () => {
  it("verifies every recorded body", async () => {
    const lines = (await verifyRecorded(REAL, { huggingface: parseHuggingfaceRecorded })).filter(
      (l) => l.source === "huggingface",
    );
    expect(lines.map(({ file, outcome, detail }) => [file, outcome, detail])).toEqual([
      [
        "model-info.bert-base-uncased.307-redirect.2025-01.headers.json",
        "decision",
        "skip: 307 redirect to google-bert/bert-base-uncased, fetched under that id",
      ],
      [
        "model-info.deepset-roberta-base-squad2.2025-01.json",
        "ok",
        "200: deepset/roberta-base-squad2: 1801802 downloads, 842 likes, arXiv [] (no headers file)",
      ],
      [
        "model-info.google-bert-bert-base-uncased.2025-01.json",
        "ok",
        "200: google-bert/bert-base-uncased: 72376843 downloads, 2065 likes, arXiv [1810.04805] (no headers file)",
      ],
      [
        "model-info.stabilityai-stable-diffusion-2-1.2025-01.json",
        "ok",
        "200: stabilityai/stable-diffusion-2-1: 1015720 downloads, 3928 likes, arXiv [1910.09700, 2112.10752, 2202.00512] (no headers file)",
      ],
    ]);
  });
});
