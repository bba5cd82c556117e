// Hugging Face rows load into raw_hf_models through the real loader, columns in DDL order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRows } from "../testing.ts";
import { toRows } from "./rows.ts";
import { modelInfoSchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/huggingface");
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("huggingface rows in DuckDB", () => {
  it("loads a row", async () => {
    const file = path.join(REAL, "model-info.stabilityai-stable-diffusion-2-1.2025-01.json");
    const model = modelInfoSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    const rows = toRows({ model, repo: "stability-ai/stablediffusion", matchedBy: "card" }, meta);
    const { columns, loaded } = await loadRows("raw_hf_models", rows);
    expect(columns).toEqual(Object.keys(rows[0] ?? {}));
    expect(loaded[0]?.arxiv_ids).toEqual(["1910.09700", "2112.10752", "2202.00512"]);
  });
});
