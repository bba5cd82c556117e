// Docker Hub rows load into raw_dockerhub_repos through the real loader, columns in DDL order.
import { describe, expect, it } from "vitest";
import { loadRows } from "../testing.ts";
import { toRows } from "./rows.ts";

const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("dockerhub rows in DuckDB", () => {
  it("loads a row", async () => {
    const image = { namespace: "a", name: "b", pull_count: 3_000_000_000, star_count: 2, last_updated: null };
    const rows = toRows({ image, repo: "a/b", matchedBy: "name" }, meta);
    const { columns, loaded } = await loadRows("raw_dockerhub_repos", rows);
    expect(columns).toEqual(Object.keys(rows[0] ?? {}));
    expect(loaded[0]).toMatchObject({ image: "a/b", pull_count: 3_000_000_000, last_updated: null });
  });
});
