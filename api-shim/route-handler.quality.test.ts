// GET /api/v1/quality through app.inject() over a published fixture release.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_ROWS, fixtureRecord, fixtureRow } from "../publish/testing.ts";
import { QUALITY_TIER_RANGES, type QualityTier } from "../schemas/index.ts";
import { type Fixture, movableClock, publishedFixture, type TestApp, testApp } from "./testing.ts";

let fixture: Fixture;
let shim: TestApp;
const clock = movableClock("2026-03-02T10:00:00Z");

beforeAll(async () => {
  fixture = await publishedFixture();
  shim = await testApp(fixture, { clock, config: { quota: { anonymous: 100_000 } } });
});
afterAll(async () => {
  await shim.close();
  await fixture.cleanup();
});

const get = (query: string) => shim.app.inject({ method: "GET", url: `/api/v1/quality?${query}` });
async function list(query: string) {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as {
    data: { full_name: string; quality_score: number }[];
    meta: Record<string, unknown>;
  };
  return {
    names: body.data.map((r) => r.full_name),
    scores: body.data.map((r) => r.quality_score),
    meta: body.meta,
  };
}
const record = (name: string) => fixtureRecord(fixtureRow(name));

// mcp in canonical order: score desc, then stars desc, then full_name
const MCP = [
  "acme/alpha-server", // 92
  "acme/beta-sdk", // 85, 1200 stars
  "bolt/gamma", // 85, 1200 stars
  "core/delta", // 71
  "core/epsilon", // 60
  "dyn/zeta", // 45
  "echo/eta", // 39
  "echo/theta", // 12
];

describe("GET /api/v1/quality", () => {
  it("answers with the exact envelope, headers included", async () => {
    const res = await get("domain=mcp&limit=2");
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      JSON.stringify({
        data: [record("acme/alpha-server"), record("acme/beta-sdk")],
        meta: {
          timestamp: "2026-03-02T10:00:00.000+00:00",
          count: 2,
          total: 8,
          next_offset: 2,
          query: { domain: "mcp", limit: 2, offset: 0 },
        },
      }),
    );
    expect(res.headers).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(res.body)),
      "cache-control": "private, max-age=300",
      "x-ratelimit-limit": "100000",
      "x-ratelimit-reset": "2026-03-03T00:00:00+00:00",
    });
  });

  it("lists a domain in canonical order with defaults echoed", async () => {
    const { names, meta } = await list("domain=mcp");
    expect(names).toEqual(MCP);
    expect(meta).toEqual({
      timestamp: "2026-03-02T10:00:00.000+00:00",
      count: 8,
      total: 8,
      next_offset: null,
      query: { domain: "mcp", limit: 50, offset: 0 },
    });
  });

  it.each([
    ["limit=3&offset=0", MCP.slice(0, 3), 3],
    ["limit=3&offset=3", MCP.slice(3, 6), 6],
    ["limit=3&offset=6", MCP.slice(6), null],
    ["limit=7", MCP.slice(0, 7), 7],
    ["limit=8", MCP, null],
    ["offset=8", [], null],
    ["limit=500&offset=1000", [], null],
  ])("pages with %s", async (query, expected, next) => {
    const { names, meta } = await list(`domain=mcp&${query}`);
    expect(names).toEqual(expected);
    expect(meta).toMatchObject({ count: expected.length, total: 8, next_offset: next });
  });

  it.each([
    ["0", 8],
    ["60", 5],
    ["61", 4],
    ["92", 1],
    ["100", 0],
  ])("cuts at min_score=%s", async (minScore, total) => {
    const { names, meta } = await list(`domain=mcp&min_score=${minScore}`);
    expect(names).toEqual(MCP.slice(0, total));
    expect(meta).toMatchObject({
      total,
      query: { domain: "mcp", min_score: Number(minScore), limit: 50, offset: 0 },
    });
  });

  it.each([
    ["verified", ["acme/alpha-server", "acme/beta-sdk", "bolt/gamma"]],
    ["established", ["core/delta", "core/epsilon"]],
    ["emerging", ["dyn/zeta"]],
    ["experimental", ["echo/eta", "echo/theta"]],
  ] as const)("filters quality_tier=%s by its score range", async (tier: QualityTier, expected) => {
    const { names, scores } = await list(`domain=mcp&quality_tier=${tier}`);
    expect(names).toEqual(expected);
    const { min, max } = QUALITY_TIER_RANGES[tier];
    for (const score of scores) expect(score >= min && score <= max).toBe(true);
  });

  it("filters by subcategory and combines filters", async () => {
    expect((await list("domain=mcp&subcategory=mcp-servers")).names).toEqual([
      "acme/alpha-server",
      "bolt/gamma",
      "dyn/zeta",
      "echo/eta",
    ]);
    expect((await list("domain=mcp&subcategory=mcp-servers&quality_tier=experimental")).names).toEqual([
      "echo/eta",
    ]);
    expect((await list("domain=mcp&subcategory=mcp-servers&min_score=50")).names).toEqual([
      "acme/alpha-server",
      "bolt/gamma",
    ]);
    expect((await list("domain=mcp&quality_tier=verified&min_score=86")).names).toEqual([
      "acme/alpha-server",
    ]);
    expect((await list("domain=mcp&quality_tier=emerging&min_score=80")).names).toEqual([]);
    const paged = await list("domain=mcp&subcategory=mcp-servers&limit=1&offset=1");
    expect(paged.names).toEqual(["bolt/gamma"]);
    expect(paged.meta).toMatchObject({
      count: 1,
      total: 4,
      next_offset: 2,
      query: { domain: "mcp", subcategory: "mcp-servers", limit: 1, offset: 1 },
    });
    // a subcategory of the taxonomy that no record carries: an empty list (an unknown name is 422, below)
    expect((await list("domain=mcp&subcategory=mcp-registries")).meta).toMatchObject({ count: 0, total: 0 });
    const unknown = await get("domain=mcp&subcategory=no-such-thing");
    expect([unknown.statusCode, unknown.json().detail.error.code]).toEqual([422, "invalid_parameter"]);
  });

  it("serves every domain, an empty one with an empty list", async () => {
    expect((await list("domain=rag")).names).toEqual(["fox/iota", "fox/kappa", "gnu/lambda"]);
    expect((await list("domain=agents")).names).toEqual(["hive/mu"]);
    expect(await list("domain=scientific-ml")).toMatchObject({
      names: [],
      meta: { count: 0, total: 0, next_offset: null },
    });
  });

  it("answers the same query the same way twice, with the response time as timestamp", async () => {
    const first = await get("domain=rag&limit=1");
    clock.set("2026-03-02T10:00:01.5Z");
    const second = await get("domain=rag&limit=1");
    clock.set("2026-03-02T10:00:00Z");
    expect(second.body).toBe(first.body.replace("10:00:00.000", "10:00:01.500"));
  });

  it("answers HEAD with the headers only", async () => {
    const res = await shim.app.inject({ method: "HEAD", url: "/api/v1/quality?domain=mcp" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    expect(Number(res.headers["content-length"])).toBeGreaterThan(1000);
    expect(res.headers["x-ratelimit-limit"]).toBe("100000");
  });

  it("serves a new release after reload, without a restart", async () => {
    await fixture.publish(
      FIXTURE_ROWS.filter((r) => r.full_name !== "acme/alpha-server"),
      "2026-03-03T03:15:00Z",
    );
    expect((await list("domain=mcp&limit=1")).names).toEqual(["acme/alpha-server"]);
    expect(await shim.release.reload()).toBe(true);
    expect((await list("domain=mcp&limit=1")).names).toEqual(["acme/beta-sdk"]);
    expect((await list("domain=mcp")).meta).toMatchObject({ total: 7 });
  });
});
