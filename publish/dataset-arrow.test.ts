// arrowFromQuery: every DuckDB type the datasets use, with nulls, read back by apache-arrow; batching past one
// batch; an empty result keeping its schema; and a type it cannot convert refused by name.
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { ARROW_BATCH_ROWS, arrowFromQuery } from "./dataset-arrow.ts";

let db: Db;
beforeAll(async () => {
  db = await openDb(":memory:");
});
afterAll(() => db.close());

describe("arrowFromQuery", () => {
  it("converts each supported type and keeps nulls", async () => {
    const sql = `SELECT * FROM (VALUES
      ('a', true, 1::TINYINT, 2::SMALLINT, 3::INTEGER, 9007199254740993::BIGINT, 1.5::FLOAT, 2.25::DOUBLE, DATE '2026-11-01'),
      (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
    ) AS t(s, b, i8, i16, i32, i64, f32, f64, d)`;
    const out = await arrowFromQuery(db, sql, "test.arrow");
    expect(out.rows).toBe(2);
    expect(out.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      "s:Utf8",
      "b:Bool",
      "i8:Int8",
      "i16:Int16",
      "i32:Int32",
      "i64:Int64",
      "f32:Float32",
      "f64:Float64",
      "d:Date32<DAY>",
    ]);
    const table = tableFromIPC(out.body);
    const row = (i: number) => out.columns.map((c) => table.getChild(c.name)?.get(i));
    expect(row(0)).toEqual(["a", true, 1, 2, 3, 9007199254740993n, 1.5, 2.25, Date.UTC(2026, 10, 1)]);
    expect(row(1)).toEqual([null, null, null, null, null, null, null, null, null]);
  });

  it("writes text in any script as UTF-8, empty strings apart from nulls", async () => {
    const texts = ["naïve", "日本語", "🦆 duck", "", null, "plain"];
    const sql = `SELECT * FROM (VALUES ('naïve', 1), ('日本語', 2), ('🦆 duck', 3), ('', 4), (NULL, 5), ('plain', 6)) AS t(s, n) ORDER BY n`;
    const table = tableFromIPC((await arrowFromQuery(db, sql, "test.arrow")).body);
    expect(Array.from({ length: table.numRows }, (_, i) => table.getChild("s")?.get(i))).toEqual(texts);
  });

  it("writes record batches of ARROW_BATCH_ROWS rows and the rest", async () => {
    const rows = ARROW_BATCH_ROWS + 1000;
    const out = await arrowFromQuery(db, `SELECT range AS n FROM range(${rows})`, "test.arrow");
    const table = tableFromIPC(out.body);
    expect([out.rows, table.numRows]).toEqual([rows, rows]);
    expect(table.batches.map((b) => b.numRows)).toEqual([ARROW_BATCH_ROWS, 1000]);
    expect(table.getChild("n")?.get(rows - 1)).toBe(BigInt(rows - 1));
  });

  it("writes an empty result as a file with its schema and no rows", async () => {
    const out = await arrowFromQuery(db, "SELECT 'x' AS s, 1 AS n WHERE false", "test.arrow");
    const table = tableFromIPC(out.body);
    expect([out.rows, table.numRows]).toEqual([0, 0]);
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(["s:Utf8", "n:Int32"]);
  });

  it("refuses a type it does not convert, naming the column", async () => {
    await expect(arrowFromQuery(db, "SELECT [1, 2] AS xs", "datasets/quality.arrow")).rejects.toThrow(
      "datasets/quality.arrow: column xs has DuckDB type INTEGER[], which the Arrow writer does not convert.",
    );
  });
});
