// arXiv rows load into raw_arxiv_papers through the real loader, columns in DDL order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRows } from "../testing.ts";
import { readFeed } from "./feed.ts";
import { toRows } from "./rows.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/arxiv");
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("arxiv rows in DuckDB", () => {
  it("loads a paper", async () => {
    const reading = readFeed(readFileSync(path.join(REAL, "query-id_list-2101.05225.2022-01.xml"), "utf8"));
    if (reading.kind !== "feed") throw new Error(reading.kind);
    const rows = toRows({ feed: reading.feed, reposById: { "2101.05225": ["a/b"] } }, meta);
    const { columns, loaded } = await loadRows("raw_arxiv_papers", rows);
    expect(columns).toEqual(Object.keys(rows[0] ?? {}));
    expect(loaded[0]).toMatchObject({ arxiv_id: "2101.05225", version: 1, repo_full_names: ["a/b"] });
  });
});
