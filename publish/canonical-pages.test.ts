// Canonical pages of a large domain: the default query's pages up to CANONICAL_PAGE_RECORDS records, each the exact
// response the shim gives for its URL, and none deeper.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../core/db.ts";
import { CANONICAL_PAGE_RECORDS, canonicalPages } from "./canonical-pages.ts";
import { renderCollection } from "./render-collection.ts";
import { QUALITY_COLLECTION, qualityRoute } from "./routes/quality.ts";
import { type FixtureRow, fixtureDb } from "./testing.ts";

const ROWS: FixtureRow[] = Array.from({ length: 1234 }, (_, i) => ({
  full_name: `owner${i}/repo${i}`,
  domain: "rag",
  subcategory: null,
  quality_score: i % 101,
  stars: i,
}));
const TIMESTAMP = "2026-03-02T00:00:00.000+00:00";

let db: Db;
const pages = new Map<string, { data: { full_name: string }[]; meta: Record<string, unknown> }>();

beforeAll(async () => {
  db = await fixtureDb(ROWS);
  await renderCollection(db, QUALITY_COLLECTION, async () => undefined, {
    validate: "sample",
    onPartition: async (partition, data) => {
      for (const page of canonicalPages(qualityRoute, partition, data, TIMESTAMP)) {
        pages.set(page.path, JSON.parse(page.body.toString()));
      }
    },
  });
});
afterAll(() => db.close());

describe("canonical pages", () => {
  it(`cover the first ${CANONICAL_PAGE_RECORDS} records of a default list, 50 a page`, () => {
    const rag = [...pages.keys()].filter((p) => p.startsWith("api/v1/quality/domain=rag/"));
    expect(rag.length).toBe(CANONICAL_PAGE_RECORDS / 50);
    const last = pages.get(`api/v1/quality/domain=rag/offset=${CANONICAL_PAGE_RECORDS - 50}.json`);
    expect(last?.data.length).toBe(50);
    // the page still says where the list goes on: the shim answers the deeper pages
    expect(last?.meta).toMatchObject({
      total: 1234,
      next_offset: CANONICAL_PAGE_RECORDS,
      timestamp: TIMESTAMP,
    });
    expect(pages.has(`api/v1/quality/domain=rag/offset=${CANONICAL_PAGE_RECORDS}.json`)).toBe(false);
  });

  it("render every page of a list shorter than that", () => {
    const mcp = [...pages.keys()].filter((p) => p.startsWith("api/v1/quality/domain=mcp/"));
    expect(mcp).toEqual(["api/v1/quality/domain=mcp/offset=0.json"]);
    expect(pages.get(mcp[0] as string)?.meta).toMatchObject({ total: 0, next_offset: null });
  });
});
