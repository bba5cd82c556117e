// npm rows load into raw_npm_packages and raw_npm_downloads through the real loader, columns in DDL order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRows } from "../testing.ts";
import { packageRow, pointRows } from "./rows.ts";
import { packumentSchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/npm");
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("npm rows in DuckDB", () => {
  it("loads a package row", async () => {
    const packument = packumentSchema.parse(
      JSON.parse(readFileSync(path.join(REAL, "packument-full.custodian.2024-09.json"), "utf8")),
    );
    const row = packageRow(packument, "betsmartmedia/custodian", meta);
    const { columns, loaded } = await loadRows("raw_npm_packages", [row]);
    expect(columns).toEqual(Object.keys(row));
    expect(loaded[0]).toMatchObject({ package: "custodian", versions_total: 11, deprecated: false });
    expect(loaded[0]?.dependencies).toEqual(["daemon", "dateformat", "nodemailer", "shell-quote"]);
  });

  it("loads a downloads row", async () => {
    const [row] = pointRows({ downloads: 5, start: "2026-01-30", end: "2026-02-28", package: "x" }, meta);
    const { columns, loaded } = await loadRows("raw_npm_downloads", [row as object]);
    expect(columns).toEqual(Object.keys(row ?? {}));
    expect(loaded).toHaveLength(1);
  });
});
