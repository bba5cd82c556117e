// GET /api/v1/projects over a release of the simulated world: name search (exact, then prefix, then substring,
// case-insensitive), filters and pages, checked against the warehouse the release was rendered from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectSummarySchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Summary {
  slug: string;
  full_name: string;
  name: string;
  description: string | null;
  language: string | null;
  domain: string;
  subcategory: string | null;
  stack_layer: string | null;
  stars: number;
  downloads_monthly: number | null;
  quality_score: number;
  quality_tier: string;
  lifecycle_stage: string;
}

const CANONICAL = "ORDER BY quality_score DESC, stars DESC, full_name";
const COLUMNS = `slug, full_name, name, nullif(description, '') AS description, nullif(language, '') AS language,
  domain, nullif(subcategory, '') AS subcategory, stack_layer, stars, downloads_monthly,
  quality_score, quality_tier, lifecycle_stage`;

let sim: SimApp;
let all: Summary[];

/** What a search should answer, by SQL: matches grouped exact (whole name or repository), prefix, substring. */
function searched(q: string, where = "true"): Promise<Summary[]> {
  return sim.db.all<Summary>(
    `SELECT ${COLUMNS} FROM projects
     WHERE contains(lower(full_name), $q) AND ${where}
     ORDER BY CASE WHEN lower(full_name) = $q OR lower(name) = $q THEN 0
       WHEN starts_with(lower(full_name), $q) OR starts_with(lower(name), $q) THEN 1 ELSE 2 END,
       quality_score DESC, stars DESC, full_name`,
    { q: q.toLowerCase() },
  );
}

beforeAll(async () => {
  sim = await sharedSimApp();
  all = await sim.db.all<Summary>(`SELECT ${COLUMNS} FROM projects ${CANONICAL}`);
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/projects", () => {
  it("lists every project in canonical order without q, 20 a page", async () => {
    const { status, body } = await sim.get("/api/v1/projects");
    expect(status).toBe(200);
    expect(body.data).toEqual(all.slice(0, 20));
    expect(body.meta).toMatchObject({
      count: 20,
      total: all.length,
      next_offset: 20,
      query: { limit: 20, offset: 0 },
    });
    for (const record of body.data) expect(projectSummarySchema.safeParse(record).success).toBe(true);
    const last = await sim.get(`/api/v1/projects?limit=50&offset=${all.length - 3}`);
    expect(last.body.data).toEqual(all.slice(-3));
    expect(last.body.meta.next_offset).toBeNull();
  });

  it("ranks an exact name first, then prefixes, then substrings, whatever the case", async () => {
    const target = all.find((p) =>
      all.some((o) => o !== p && o.full_name.toLowerCase().includes(p.name.toLowerCase())),
    );
    const q = (target ?? (all[0] as Summary)).name.toUpperCase();
    const expected = await searched(q);
    expect(expected[0]?.name.toLowerCase()).toBe(q.toLowerCase());
    const { body } = await sim.get(`/api/v1/projects?q=${encodeURIComponent(q)}&limit=50`);
    expect(body.data).toEqual(expected.slice(0, 50));
    expect(body.meta.total).toBe(expected.length);
    expect(body.meta.query).toEqual({ q, limit: 50, offset: 0 });
  });

  it("matches owner/name as a whole, and an owner as a prefix of every one of its projects", async () => {
    const top = all[0] as Summary;
    const exact = await sim.get(`/api/v1/projects?q=${encodeURIComponent(top.full_name)}`);
    expect(exact.body.data[0]).toEqual(top);
    const owner = top.full_name.split("/")[0] as string;
    const byOwner = await sim.get(`/api/v1/projects?q=${owner}&limit=50`);
    expect(byOwner.body.data).toEqual((await searched(owner)).slice(0, 50));
  });

  it("pages a substring search and narrows it by domain, stack layer and category", async () => {
    const expected = await searched("rag");
    expect(expected.length).toBeGreaterThan(3);
    const page = await sim.get("/api/v1/projects?q=rag&limit=2&offset=2");
    expect(page.body.data).toEqual(expected.slice(2, 4));
    expect(page.body.meta).toMatchObject({ count: 2, total: expected.length });

    const first = all[0] as Summary;
    const filtered = await sim.get(
      `/api/v1/projects?domain=${first.domain}&stack_layer=${first.stack_layer}&limit=50`,
    );
    expect(filtered.body.data).toEqual(
      all.filter((p) => p.domain === first.domain && p.stack_layer === first.stack_layer).slice(0, 50),
    );
    const sub = all.find((p) => p.subcategory !== null) as Summary;
    const byCategory = await sim.get(`/api/v1/projects?category=${sub.subcategory}&limit=50`);
    expect(byCategory.body.data).toEqual(all.filter((p) => p.subcategory === sub.subcategory).slice(0, 50));
    const q = sub.name.slice(1, 4);
    const both = await sim.get(`/api/v1/projects?q=${q}&category=${sub.subcategory}&limit=50`);
    expect(both.body.data).toEqual(
      await searched(q, `subcategory = '${String(sub.subcategory).replace(/'/g, "''")}'`),
    );
  });

  it("answers an empty list when nothing matches", async () => {
    const { status, body } = await sim.get("/api/v1/projects?q=zzzz-no-such-project");
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: [], meta: { count: 0, total: 0, next_offset: null } });
  });

  it.each([
    ["limit=51", "invalid_parameter", "limit must be an integer from 1 to 50"],
    ["q=", "invalid_parameter", "q must be a non-empty text of at most 100 characters"],
    [`q=${"x".repeat(101)}`, "invalid_parameter", "q must be a non-empty text of at most 100 characters"],
    ["stack_layer=hardware", "invalid_parameter", "stack_layer must be one of:"],
    ["domain=blockchain", "invalid_domain", '"blockchain" is not a supported domain'],
    ["query=rag", "invalid_parameter", 'Unknown parameter "query"'],
  ])("refuses %s with 422 %s", async (query, code, message) => {
    await sim.expectRefused(`/api/v1/projects?${query}`, code, message);
  });
});
