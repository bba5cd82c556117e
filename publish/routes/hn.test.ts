// GET /api/v1/hn over a release of the simulated world: the stories of each look-back against posts and projects by
// plain SQL, newest first, the day boundary of `days`, pages, and the parameters refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hnPostSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";

interface Post {
  id: string;
  title: string | null;
  url: string;
  hn_url: string;
  points: number;
  comments: number;
  author: string | null;
  posted_at: string;
  project: { full_name: string; slug: string; domain: string; stars: number } | null;
}

let sim: SimApp;
let posts: (Post & { age: number })[];

const within = (days: number) => posts.filter((p) => p.age < days).map(({ age: _, ...post }) => post);

beforeAll(async () => {
  sim = await sharedSimApp();
  const rows = await sim.db.all<
    Omit<Post, "project"> & { full_name: string; slug: string; domain: string; stars: number; age: number }
  >(
    `SELECT k.object_id AS id, k.title, k.url, k.hn_url, k.points, k.comments, k.author,
       strftime(k.created_at, '%Y-%m-%dT%H:%M:%SZ') AS posted_at, p.full_name, p.slug, p.domain, p.stars,
       ($1::DATE - k.created_at::DATE)::INTEGER AS age
     FROM posts k JOIN projects p USING (slug) ORDER BY k.created_at DESC, k.object_id DESC`,
    [sim.runDate],
  );
  posts = rows.map(({ full_name, slug, domain, stars, ...post }) => ({
    ...post,
    project: { full_name, slug, domain, stars },
  }));
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/hn", () => {
  it("lists the stories of the last 30 days newest first, each with its linked project", async () => {
    // the simulated world's two stories, 9 and 28 days before its last night
    expect(posts.map((p) => [p.id, p.points, p.age])).toEqual([
      ["30000929", 154, 9],
      ["30000879", 81, 28],
    ]);
    const { status, body } = await sim.get("/api/v1/hn?days=30");
    expect(status).toBe(200);
    expect(body.data).toEqual(within(30));
    expect(body.meta).toMatchObject({
      count: 2,
      total: 2,
      next_offset: null,
      query: { days: 30, limit: 20, offset: 0 },
    });
    expect(body.data[0]).toMatchObject({
      title: "Show HN: kimox-doc – document understanding models for invoices and forms",
      hn_url: "https://news.ycombinator.com/item?id=30000929",
      posted_at: "2026-11-11T06:28:48Z",
      project: { full_name: "vunolte/kimox-doc", domain: "document-ai" },
    });
    for (const post of body.data) expect(hnPostSchema.safeParse(post).success).toBe(true);
  });

  it("keeps a story of 9 days ago for days=10 but not for days=9, and none for the default 7", async () => {
    const ten = await sim.get("/api/v1/hn?days=10");
    expect(ten.body.data).toEqual(within(10));
    expect(ten.body.data.map((p: Post) => p.id)).toEqual(["30000929"]);
    const nine = await sim.get("/api/v1/hn?days=9");
    expect(nine.body).toMatchObject({ data: [], meta: { count: 0, total: 0, next_offset: null } });
    const byDefault = await sim.get("/api/v1/hn");
    expect(byDefault.body).toMatchObject({
      data: [],
      meta: { total: 0, query: { days: 7, limit: 20, offset: 0 } },
    });
  });

  it("pages", async () => {
    const first = await sim.get("/api/v1/hn?days=30&limit=1");
    expect(first.body.data).toEqual(within(30).slice(0, 1));
    expect(first.body.meta).toMatchObject({ count: 1, total: 2, next_offset: 1 });
    const second = await sim.get("/api/v1/hn?days=30&limit=1&offset=1");
    expect(second.body.data).toEqual(within(30).slice(1, 2));
    expect(second.body.meta.next_offset).toBeNull();
  });

  it.each([
    ["days=31", "days must be an integer from 1 to 30"],
    ["days=0", "days must be an integer from 1 to 30"],
    ["limit=101", "limit must be an integer from 1 to 100"],
    ["offset=-1", "offset must be an integer of at least 0"],
    ["q=llm", 'Unknown parameter "q"'],
  ])("refuses %s with 422 invalid_parameter", async (query, message) => {
    const { status, body } = await sim.get(`/api/v1/hn?${query}`);
    expect(status).toBe(422);
    expect(body.detail.error.code).toBe("invalid_parameter");
    expect(body.detail.error.message).toContain(message);
  });
});
