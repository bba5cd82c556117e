// renderQuality over a real in-memory DuckDB: the records file, its index, canonical paging, and rows refused.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../core/db.ts";
import { countQualityRows, type RenderedFile, renderQuality } from "./quality.ts";
import { decodeSliceIndex } from "./slice-index.ts";
import { type FixtureRow, fixtureDb, fixtureRecord } from "./testing.ts";

let db: Db;
beforeEach(async () => {
  db = await fixtureDb();
});
afterEach(() => db.close());

async function render(canonicalPages = true): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await renderQuality(
    { db, timestamp: "2026-03-02T03:15:00.000+00:00", canonicalPages },
    async (file: RenderedFile) => {
      files.set(file.path, file.body);
    },
  );
  return files;
}

describe("renderQuality", () => {
  it("turns empty text into null and missing downloads into 0", async () => {
    const files = await render(false);
    expect(JSON.parse(files.get("api/v1/quality/agents/records.json")?.toString() ?? "")).toEqual([
      {
        full_name: "hive/mu",
        name: "mu",
        description: null,
        stars: 0,
        forks: 0,
        language: null,
        license: null,
        subcategory: null,
        pypi_package: null,
        downloads_monthly: 0,
        quality_score: 0,
        quality_tier: "experimental",
        maintenance_score: 0,
        adoption_score: 0,
        maturity_score: 0,
        community_score: 0,
        slug: "hive--mu",
      },
    ]);
    expect([...files.keys()]).toHaveLength(60);
  });

  it("indexes a domain's records by byte offset, score and subcategory", async () => {
    const files = await render(false);
    const records = files.get("api/v1/quality/rag/records.json") ?? Buffer.alloc(0);
    const index = decodeSliceIndex(files.get("api/v1/quality/rag/index.bin") ?? Buffer.alloc(0));
    expect([...index.scores]).toEqual([80, 59, 40]);
    expect([...index.subcategories]).toEqual([
      ["rag-frameworks", Uint32Array.from([1, 2])],
      ["rerankers", Uint32Array.from([0])],
    ]);
    const second = records.subarray(index.offsets[1], (index.offsets[2] ?? 0) - 1).toString();
    expect(JSON.parse(second).full_name).toBe("fox/kappa");
    expect(index.offsets[3]).toBe(records.length);
  });

  it("pages canonical lists by 50 with next_offset", async () => {
    const rows: FixtureRow[] = Array.from({ length: 120 }, (_, i) => ({
      full_name: `many/repo-${String(i).padStart(3, "0")}`,
      domain: "nlp",
      subcategory: i % 2 ? "odd" : "even",
      quality_score: 100 - Math.floor(i / 2),
      stars: 1000 - i,
    }));
    db.close();
    db = await fixtureDb(rows);
    const files = await render();
    const page = (p: string) =>
      JSON.parse(files.get(`api/v1/quality/nlp/pages/${p}.json`)?.toString() ?? "null");
    expect([0, 50, 100].map((o) => page(`_all/_all/${o}`).meta)).toEqual(
      [0, 50, 100].map((offset) => ({
        timestamp: "2026-03-02T03:15:00.000+00:00",
        count: offset === 100 ? 20 : 50,
        total: 120,
        next_offset: offset === 100 ? null : offset + 50,
        query: { domain: "nlp", limit: 50, offset },
      })),
    );
    expect(page("_all/_all/150")).toBeNull();
    expect(page("_all/_all/50").data[0]).toEqual(fixtureRecord(rows[50] as FixtureRow));
    // row i scores 100 - floor(i / 2): the odd rows 1 to 41 are verified (80–100), none is below 40
    expect(page("odd/verified/0").meta).toMatchObject({ count: 21, total: 21, next_offset: null });
    expect(page("odd/experimental/0").meta).toMatchObject({ count: 0, total: 0, next_offset: null });
  });

  it("refuses rows that break the quality record", async () => {
    await db.run("UPDATE score_quality SET quality_tier = 'verified' WHERE full_name = 'dyn/zeta'");
    await expect(render()).rejects.toMatchObject({
      message:
        "score_quality row dyn/zeta (mcp) cannot be published: quality_tier: quality_tier verified covers scores 80–100, not 45.",
      hint: "Fix the scoring SQL so every row matches the quality record of schemas/records.ts, then rerun it.",
    });
  });

  it("refuses subcategories that cannot name a page folder", async () => {
    await db.run("UPDATE score_quality SET subcategory = '../x' WHERE full_name = 'dyn/zeta'");
    await expect(render()).rejects.toThrow(
      'score_quality row dyn/zeta (mcp) cannot be published: subcategory "../x" is not lowercase kebab-case.',
    );
  });

  it("refuses rows outside the 30 domains", async () => {
    await db.run("UPDATE score_quality SET domain = 'crypto' WHERE full_name LIKE 'fox/%'");
    await expect(countQualityRows(db)).rejects.toThrow(
      "score_quality has 2 rows outside the 30 domains (crypto).",
    );
  });
});
