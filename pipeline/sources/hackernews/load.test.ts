// Hacker News rows load into raw_hn_posts through the real loader, columns in DDL order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRows } from "../testing.ts";
import { toRows } from "./rows.ts";
import { searchSchema } from "./schemas.ts";

const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("hackernews rows in DuckDB", () => {
  it("loads the rows of a page", async () => {
    const file = path.join(import.meta.dirname, "testdata/search_by_date.page-0.json");
    const page = searchSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    const rows = toRows({ page, tracked: new Set(["simonw/datasette"]) }, meta);
    const { columns, loaded } = await loadRows("raw_hn_posts", rows);
    expect(columns).toEqual(Object.keys(rows[0] ?? {}));
    expect(loaded.map((r) => r.object_id)).toEqual(["41000001", "41000004"]);
  });
});
