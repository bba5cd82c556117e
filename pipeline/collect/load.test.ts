// Loading batch files into raw tables on a real DuckDB file: exact types and values, replace-by-run-date,
// and all-or-nothing on a bad batch.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDb } from "../../core/db.ts";
import { openBatchStore } from "./batches.ts";
import { FILES_PER_INSERT, loadBatches } from "./load.ts";

let stateDir = "";
let db: Db;
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-load-"));
  db = await openDb(path.join(stateDir, "warehouse.duckdb"));
});
afterEach(async () => {
  db.close();
  await rm(stateDir, { recursive: true, force: true });
});

const downloads = (runDate: string, pkg: string, month: number) => ({
  run_date: runDate,
  package: pkg,
  last_day: 1,
  last_week: 7,
  last_month: month,
  fetched_at: `${runDate}T05:00:00.123456Z`,
});

const read = () =>
  db.all(
    "SELECT run_date::VARCHAR AS run_date, package, last_month, fetched_at::VARCHAR AS fetched_at FROM raw_pypi_downloads ORDER BY run_date, package",
  );

describe("loadBatches", () => {
  it("creates the table from its DDL and loads every file with the table's own column types", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    await store.write("pypistats", "raw_pypi_downloads.0001", [
      downloads("2026-03-01", "alpha", 157_236_987_000),
    ]);
    await store.write("pypistats", "raw_pypi_downloads.0002", [downloads("2026-03-01", "beta", 5)]);
    await store.write("pypistats", "raw_pypi_downloads.0003", []);
    const files = await store.files("pypistats", "raw_pypi_downloads.");
    expect(await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files }])).toEqual([
      { table: "raw_pypi_downloads", files: 3, rows: 2 },
    ]);
    expect(await read()).toEqual([
      {
        run_date: "2026-03-01",
        package: "alpha",
        last_month: 157_236_987_000,
        fetched_at: "2026-03-01 05:00:00.123456",
      },
      { run_date: "2026-03-01", package: "beta", last_month: 5, fetched_at: "2026-03-01 05:00:00.123456" },
    ]);
    const types = await db.all<{ column_name: string; column_type: string }>("DESCRIBE raw_pypi_downloads");
    expect(types.find((c) => c.column_name === "last_month")?.column_type).toBe("BIGINT");
  });

  it("replaces the run date's rows and leaves other days alone", async () => {
    const day1 = openBatchStore(stateDir, "2026-03-01");
    const day2 = openBatchStore(stateDir, "2026-03-02");
    await day1.write("p", "raw_pypi_downloads.1", [
      downloads("2026-03-01", "alpha", 1),
      downloads("2026-03-01", "beta", 2),
    ]);
    await day2.write("p", "raw_pypi_downloads.1", [downloads("2026-03-02", "alpha", 3)]);
    await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: await day1.files("p") }]);
    await loadBatches(db, "2026-03-02", [{ table: "raw_pypi_downloads", files: await day2.files("p") }]);
    await day1.write("p", "raw_pypi_downloads.1", [downloads("2026-03-01", "gamma", 9)]);
    const again = await loadBatches(db, "2026-03-01", [
      { table: "raw_pypi_downloads", files: await day1.files("p") },
    ]);
    expect(again).toEqual([{ table: "raw_pypi_downloads", files: 1, rows: 1 }]);
    expect((await read()).map((r) => [r.run_date, r.package, r.last_month])).toEqual([
      ["2026-03-01", "gamma", 9],
      ["2026-03-02", "alpha", 3],
    ]);
  });

  it("changes nothing when one batch is bad, and says which table", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    await store.write("p", "raw_pypi_downloads.1", [downloads("2026-03-01", "alpha", 1)]);
    await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: await store.files("p") }]);
    await store.write("p", "raw_pypi_downloads.2", [
      { ...downloads("2026-03-01", "beta", 2), last_week: null },
    ]);
    await expect(
      loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: await store.files("p") }]),
    ).rejects.toThrow("Loading raw_pypi_downloads for 2026-03-01 failed");
    expect((await read()).map((r) => r.package)).toEqual(["alpha"]);
  });

  it("loads more files than one statement reads, all or nothing", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    const count = FILES_PER_INSERT * 2 + 7;
    for (let i = 0; i < count; i++)
      await store.write("p", `raw_pypi_downloads.${String(i).padStart(4, "0")}`, [
        downloads("2026-03-01", `pkg-${String(i).padStart(4, "0")}`, i),
      ]);
    const files = await store.files("p");
    expect(await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files }])).toEqual([
      { table: "raw_pypi_downloads", files: count, rows: count },
    ]);
    expect((await read()).map((r) => r.last_month)).toEqual(Array.from({ length: count }, (_, i) => i));
    // A bad file in the last statement undoes the earlier statements too.
    await store.write("p", "raw_pypi_downloads.9999", [
      { ...downloads("2026-03-01", "zz", 1), last_week: null },
    ]);
    await expect(
      loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: await store.files("p") }]),
    ).rejects.toThrow("Loading raw_pypi_downloads for 2026-03-01 failed");
    expect((await read()).map((r) => r.last_month)).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it("with no files, empties the run date (a source that found nothing today)", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    await store.write("p", "raw_pypi_downloads.1", [downloads("2026-03-01", "alpha", 1)]);
    await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: await store.files("p") }]);
    expect(await loadBatches(db, "2026-03-01", [{ table: "raw_pypi_downloads", files: [] }])).toEqual([
      { table: "raw_pypi_downloads", files: 0, rows: 0 },
    ]);
  });

  it("refuses a table name that is not raw_*", async () => {
    await expect(
      loadBatches(db, "2026-03-01", [{ table: "score_quality; DROP", files: [] }]),
    ).rejects.toThrow("not a raw_* table name");
  });
});
