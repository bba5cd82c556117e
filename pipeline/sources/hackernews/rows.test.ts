// Hacker News: a search page maps to exact rows for stories linking tracked repositories; the window and
// query follow the day slicing. testdata/ is hand-built from Algolia's documented answer (no recording).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { searchUrl, windowDays } from "./index.ts";
import { toRows } from "./rows.ts";
import { searchSchema } from "./schemas.ts";

const page = searchSchema.parse(
  JSON.parse(readFileSync(path.join(import.meta.dirname, "testdata/search_by_date.page-0.json"), "utf8")),
);
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };
const base = {
  run_date: "2026-03-01",
  repo_full_name: "simonw/datasette",
  fetched_at: "2026-03-01T04:00:00.000Z",
};

describe("hackernews toRows", () => {
  it("keeps stories whose url is a tracked repository, in any spelling", () => {
    expect(toRows({ page, tracked: new Set(["simonw/datasette"]) }, meta)).toEqual([
      {
        ...base,
        object_id: "41000001",
        title: "Show HN: Datasette",
        url: "https://github.com/simonw/datasette#readme",
        points: 311,
        num_comments: 42,
        created_at: "2026-02-27T16:04:11Z",
        author: "simonw",
      },
      {
        ...base,
        object_id: "41000004",
        title: "Datasette 1.0 released",
        url: "http://www.github.com/SimonW/Datasette/releases/tag/1.0",
        points: 1,
        num_comments: 0,
        created_at: "2026-02-27T07:00:00Z",
        author: "fan",
      },
    ]);
  });

  it("counts missing points and comments as zero", () => {
    const [row] = toRows({ page, tracked: new Set(["nobody/untracked"]) }, meta);
    expect(row).toMatchObject({ object_id: "41000002", points: 0, num_comments: 0 });
  });

  it("reports a hit without objectID by its path", () => {
    const result = searchSchema.safeParse({ ...page, hits: [{ created_at: "x", created_at_i: 1 }] });
    expect(result.error?.issues[0]?.path).toEqual(["hits", 0, "objectID"]);
  });
});

describe("hackernews window", () => {
  it("covers the days before the run date, oldest first", () => {
    expect(windowDays("2026-03-01", 3)).toEqual(["2026-02-26", "2026-02-27", "2026-02-28"]);
    expect(windowDays("2026-03-01")).toHaveLength(30);
  });

  it("asks for github.com stories of a half-open window, 100 per page", () => {
    expect(searchUrl("https://hn.algolia.com", 1772150400, 1772236800, 2)).toBe(
      "https://hn.algolia.com/api/v1/search_by_date?query=github.com&tags=story&numericFilters=created_at_i%3E%3D1772150400%2Ccreated_at_i%3C1772236800&hitsPerPage=100&page=2",
    );
  });
});
