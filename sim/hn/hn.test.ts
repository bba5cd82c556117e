// Hacker News search over a real socket: hits in Algolia's shape, newest first, filtered by time window,
// points and query words, many linking the GitHub URL of a simulated repository.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson } from "../testing.ts";

const searchShape = z.object({
  hits: z.array(
    z.object({
      objectID: z.string(),
      title: z.string(),
      url: z.string().nullable(),
      points: z.number().int(),
      num_comments: z.number().int(),
      created_at: z.string(),
      created_at_i: z.number().int(),
      author: z.string(),
      _tags: z.array(z.string()),
    }),
  ),
  nbHits: z.number().int(),
  nbPages: z.number().int(),
  page: z.number().int(),
  hitsPerPage: z.number().int(),
});

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 3000, seed: 14, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

describe("GET /hn/api/v1/search_by_date", () => {
  it("pages stories newest first inside the created_at_i window", async () => {
    const since = Date.parse("2025-10-01T00:00:00Z") / 1000;
    const url = `${sim.url}/hn/api/v1/search_by_date?tags=story&numericFilters=created_at_i>${since}&hitsPerPage=20`;
    const first = searchShape.parse((await fetchJson(url)).body);
    expect(first.nbHits).toBeGreaterThan(20);
    expect(first.nbPages).toBe(Math.ceil(first.nbHits / 20));
    const times = first.hits.map((h) => h.created_at_i);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times.every((t) => t > since && t <= Date.parse("2026-01-15T00:00:00Z") / 1000)).toBe(true);
    const second = searchShape.parse((await fetchJson(`${url}&page=1`)).body);
    expect(second.hits[0]?.created_at_i).toBeLessThanOrEqual(times[19] as number);
  });

  it("finds the stories linking a repository by its GitHub URL", async () => {
    const all = searchShape.parse(
      (await fetchJson(`${sim.url}/hn/api/v1/search_by_date?tags=story&hitsPerPage=1000`)).body,
    );
    const linked = all.hits.find((h) =>
      h.url?.startsWith("https://github.com/"),
    ) as (typeof all.hits)[number];
    const path = (linked.url as string).replace("https://", "");
    const found = searchShape.parse(
      (await fetchJson(`${sim.url}/hn/api/v1/search_by_date?query=${encodeURIComponent(path)}&tags=story`))
        .body,
    );
    expect(found.hits.map((h) => h.objectID)).toContain(linked.objectID);
    expect(found.hits.every((h) => `${h.title} ${h.url}`.toLowerCase().includes(path.toLowerCase()))).toBe(
      true,
    );
    const popular = searchShape.parse(
      (await fetchJson(`${sim.url}/hn/api/v1/search_by_date?tags=story&numericFilters=points>=100`)).body,
    );
    expect(popular.hits.every((h) => h.points >= 100)).toBe(true);
  });
});
