// The public database holds exactly the public tables, replaces the previous file atomically, and says which
// public table the warehouse lacks.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { sha256File } from "../core/storage.ts";
import {
  buildPublicDb,
  PUBLIC_TABLES,
  publicDbPaths,
  publishPublicDb,
  resolvePublicDb,
} from "./public-db.ts";
import { createPublicTables, FIXTURE_RUN_DATE, makeTempDir } from "./public-testing.ts";
import { ensureRawTables, score } from "./score.ts";

const FIXTURE_COUNTS = {
  projects: 6,
  snapshots: 5,
  releases: 5,
  packages: 6,
  transitions: 4,
  posts: 1,
  papers: 2,
  labs: 2,
  contributors: 3,
};

describe("public database", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let warehouse: Db;

  beforeEach(async () => {
    temp = await makeTempDir();
    warehouse = await openDb(path.join(temp.dir, "warehouse.duckdb"));
    await createPublicTables(warehouse);
    // tables that must never reach the public file
    await warehouse.run("CREATE TABLE raw_github_repos AS SELECT 'R_1' AS node_id");
    await warehouse.run("CREATE TABLE feat_packages AS SELECT 'x' AS package");
  });

  afterEach(async () => {
    warehouse.close();
    await temp.remove();
  });

  /** The folder's files other than the warehouse's own (its WAL comes and goes). */
  async function filesBeside(): Promise<string[]> {
    return (await readdir(temp.dir)).filter((n) => !n.startsWith("warehouse.duckdb")).sort();
  }

  async function tablesOf(file: string): Promise<string[]> {
    const pub = await openDb(file, { readOnly: true });
    try {
      const rows = await pub.all<{ name: string }>(
        "SELECT table_name AS name FROM duckdb_tables() WHERE NOT temporary ORDER BY name",
      );
      return rows.map((r) => r.name);
    } finally {
      pub.close();
    }
  }

  it("copies exactly the public tables and reports their row counts", async () => {
    const file = path.join(temp.dir, "public.duckdb");
    const report = await buildPublicDb({ db: warehouse, file, runDate: FIXTURE_RUN_DATE });
    expect(report.tables).toEqual(FIXTURE_COUNTS);
    expect(report.run_date).toBe(FIXTURE_RUN_DATE);
    expect(await tablesOf(file)).toEqual([...PUBLIC_TABLES].sort());
    expect(await filesBeside()).toEqual(["parts", "public.duckdb", "public.json"]);
    // the closed weeks of snapshots and months of contributors, releases and transitions before 2026-11-01 (a
    // Sunday: its week is open)
    expect(report.parts.map((p) => [p.name.slice(0, -17), p.rows, p.built])).toEqual([
      ["snapshots-2026-09-14", 1, true],
      ["snapshots-2026-10-12", 1, true],
      ["snapshots-2026-10-19", 1, true],
      ["contributors-2026-09", 1, true],
      ["contributors-2026-10", 1, true],
      ["releases-2026-10", 4, true],
      ["transitions-2026-06", 1, true],
      ["transitions-2026-09", 1, true],
      ["transitions-2026-10", 2, true],
    ]);
    expect((await readdir(path.join(temp.dir, "parts"))).sort()).toEqual(
      report.parts.map((p) => `${p.name}.duckdb`).sort(),
    );
  });

  it("keeps the contract's columns and types", async () => {
    const file = path.join(temp.dir, "public.duckdb");
    await buildPublicDb({ db: warehouse, file, runDate: FIXTURE_RUN_DATE });
    const pub = await openDb(file, { readOnly: true });
    const [row] = await pub.all("SELECT count(*) AS n, any_value(typeof(topics)) AS t FROM projects");
    pub.close();
    expect(row).toEqual({ n: 6, t: "VARCHAR[]" });
  });

  it("names every missing public table and leaves the previous file alone", async () => {
    const file = path.join(temp.dir, "public.duckdb");
    await buildPublicDb({ db: warehouse, file, runDate: FIXTURE_RUN_DATE });
    await warehouse.run("DROP TABLE posts; DROP TABLE labs");
    await expect(buildPublicDb({ db: warehouse, file, runDate: "2026-11-02" })).rejects.toThrow(
      "The warehouse has no posts, labs tables, which the public database must hold.",
    );
    expect(await tablesOf(file)).toHaveLength(PUBLIC_TABLES.length);
    expect(await filesBeside()).toEqual(["parts", "public.duckdb", "public.json"]);
  });

  it("removes its temp file when a copy fails midway", async () => {
    const file = path.join(temp.dir, "public.duckdb");
    // a view that fails when read: the copy of `papers` breaks after the first tables were copied
    await warehouse.run("DROP TABLE papers; CREATE VIEW papers AS SELECT error('disk on fire') AS x");
    await expect(buildPublicDb({ db: warehouse, file, runDate: FIXTURE_RUN_DATE })).rejects.toThrow(
      /Building the public database .*public\.duckdb failed: .*disk on fire/,
    );
    // the history parts were complete before the nightly part failed: kept, and reused by the next build
    expect(await filesBeside()).toEqual(["parts"]);
    await warehouse.run("DROP VIEW papers; CREATE TABLE papers AS SELECT 1 AS x");
    const report = await buildPublicDb({ db: warehouse, file, runDate: FIXTURE_RUN_DATE });
    expect(report.parts.map((p) => p.built)).toEqual(Array(9).fill(false));
  });

  it("publishes under public/<run_date>-<sha256 prefix>.duckdb, points current.json at it, keeps one previous", async () => {
    const now = () => new Date("2026-11-03T04:00:00Z");
    const names: string[] = [];
    for (const runDate of ["2026-11-01", "2026-11-02", "2026-11-03"]) {
      const report = await publishPublicDb({ db: warehouse, stateRoot: temp.dir, runDate, now });
      const name = path.basename(report.file, ".duckdb");
      // named by its bytes: the night, then the first 16 hex digits of the file's sha256
      expect([name.slice(0, 11), name.slice(11)]).toEqual([
        `${runDate}-`,
        (await sha256File(report.file)).slice(0, 16),
      ]);
      names.push(name);
    }
    const [, second, third] = names;
    const paths = publicDbPaths(temp.dir);
    expect((await readdir(paths.dir)).sort()).toEqual([
      `${second}.duckdb`,
      `${second}.json`,
      `${third}.duckdb`,
      `${third}.json`,
      "current.json",
      "parts",
    ]);
    expect(await resolvePublicDb(temp.dir)).toEqual({
      run_date: "2026-11-03",
      file: `${third}.duckdb`,
      built_at: "2026-11-03T04:00:00.000Z",
      tables: FIXTURE_COUNTS,
      path: path.join(paths.dir, `${third}.duckdb`),
    });
    // the same rows build the same bytes, so the same name; the night built again with other rows (its history
    // release) while its first build is served: both stay, each its own file
    expect(
      path.basename(
        (await publishPublicDb({ db: warehouse, stateRoot: temp.dir, runDate: "2026-11-03", now })).file,
      ),
    ).toBe(`${third}.duckdb`);
    await warehouse.run("UPDATE projects SET stars = stars + 1");
    const again = await publishPublicDb({
      db: warehouse,
      stateRoot: temp.dir,
      runDate: "2026-11-03",
      keepRunDates: ["2026-11-03"],
    });
    const rebuilt = path.basename(again.file);
    expect(rebuilt).not.toBe(`${third}.duckdb`);
    // (and the night before, KEEP_PREVIOUS_PUBLIC_DBS)
    expect((await readdir(paths.dir)).filter((f) => f.endsWith(".duckdb")).sort()).toEqual(
      [`${second}.duckdb`, `${third}.duckdb`, rebuilt].sort(),
    );
    // the release serving the first build still reads it; one naming the second reads that
    expect(
      (await resolvePublicDb(temp.dir, { run_date: "2026-11-03", public_db: `${third}.duckdb` }))?.path,
    ).toBe(path.join(paths.dir, `${third}.duckdb`));
    expect((await resolvePublicDb(temp.dir, { run_date: "2026-11-03", public_db: rebuilt }))?.path).toBe(
      path.join(paths.dir, rebuilt),
    );
  });

  it("removes what a killed build left behind, and nothing else", async () => {
    const paths = publicDbPaths(temp.dir);
    await mkdir(path.join(paths.dir, "2026-10-31.duckdb.tmp"), { recursive: true }); // a reader's spill folder
    await writeFile(path.join(paths.dir, "2026-10-31.duckdb.4242-0123456789ab.tmp"), "half");
    await writeFile(path.join(paths.dir, "2026-10-31.duckdb.4242-0123456789ab.tmp.wal"), "half");
    const report = await publishPublicDb({ db: warehouse, stateRoot: temp.dir, runDate: "2026-11-01" });
    const name = path.basename(report.file, ".duckdb");
    expect((await readdir(paths.dir)).sort()).toEqual([
      "2026-10-31.duckdb.tmp",
      `${name}.duckdb`,
      `${name}.json`,
      "current.json",
      "parts",
    ]);
  });

  it("resolves to undefined before the first build", async () => {
    expect(await resolvePublicDb(temp.dir)).toBeUndefined();
  });
});

describe("the hand-made public tables", () => {
  it("have the columns and types of those the score stage builds", async () => {
    const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata");
    const warehouse = await openDb(":memory:");
    const fixture = await openDb(":memory:");
    try {
      await ensureRawTables(warehouse);
      for (const [table, file] of [
        ["raw_github_repos", "score-raw-github.ndjson"],
        ["raw_pypi_projects", "score-raw-pypi.ndjson"],
        ["raw_github_activity", "score-raw-activity.ndjson"],
      ]) {
        await warehouse.run(
          `INSERT INTO ${table} BY NAME SELECT * FROM read_json_auto(${sqlLiteral(path.join(testdata, file ?? ""))})`,
        );
      }
      await score({ db: warehouse, runDate: "2026-11-20", logger: silentLogger });
      await createPublicTables(fixture);
      const columns = (db: Db) =>
        db.all(
          `SELECT table_name, column_name, data_type FROM duckdb_columns()
           WHERE database_name = current_database() AND table_name IN (${PUBLIC_TABLES.map(sqlLiteral).join(", ")})
           ORDER BY table_name, column_index`,
        );
      const built = await columns(warehouse);
      expect(built).toHaveLength(151);
      expect(await columns(fixture)).toEqual(built);
    } finally {
      warehouse.close();
      fixture.close();
    }
  });
});
