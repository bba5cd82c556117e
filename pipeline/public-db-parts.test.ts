// The public database in parts answers exactly what the warehouse's public tables hold — what a database of one
// file copied — for every table, night after night over four months of history; a history part is built once, when
// its period closes, and kept while a night names it; a runner without them builds only those its target lacks.
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { publicDbPartKey } from "../core/public-db.ts";
import { openQueryRunner, type QueryRunner } from "../core/query/index.ts";
import { createLocalStorage } from "../core/storage.ts";
import { PUBLIC_TABLES, type PublicDbReport, publicDbPaths, publishPublicDb } from "./public-db.ts";
import { addFixtureNight, addFixtureNights, createPublicTables, makeTempDir } from "./public-testing.ts";

/** Rows, a sum of row hashes and an MD5 of every row as text in order: one line per table. */
const fingerprintSql = (table: string) =>
  `SELECT count(*)::VARCHAR || ' ' || coalesce(sum(hash(t)), 0)::VARCHAR || ' ' ||
     md5(coalesce(string_agg(t::VARCHAR, '|' ORDER BY t::VARCHAR), '')) AS f FROM ${table} t`;
const columnsSql = (catalog: string, table: string) =>
  `SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position) AS c FROM information_schema.columns
   WHERE table_catalog = '${catalog}' AND table_schema = 'main' AND table_name = '${table}'`;

describe("the public database in parts", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let warehouse: Db;

  beforeAll(async () => {
    temp = await makeTempDir();
    warehouse = await openDb(path.join(temp.dir, "warehouse.duckdb"));
    await createPublicTables(warehouse);
    await addFixtureNights(warehouse, "2026-10-30");
  });

  afterAll(async () => {
    warehouse.close();
    await temp.remove();
  });

  /** Builds the night's public database, then compares every table read through the query runner with the warehouse. */
  async function buildAndCompare(runDate: string): Promise<PublicDbReport> {
    const report = await publishPublicDb({ db: warehouse, stateRoot: temp.dir, runDate });
    await compare(report.file);
    return report;
  }

  async function compare(file: string): Promise<void> {
    let runner: QueryRunner | undefined;
    try {
      runner = await openQueryRunner({ file, threads: 1 });
      for (const table of PUBLIC_TABLES) {
        const read = async (sql: string) => (await (runner as QueryRunner).run(sql)).rows[0]?.[0];
        const [expected] = await warehouse.all<{ f: string }>(fingerprintSql(table));
        const [columns] = await warehouse.all<{ c: string }>(columnsSql("warehouse", table));
        expect([table, await read(fingerprintSql(table))]).toEqual([table, expected?.f]);
        expect([table, await read(columnsSql("public", table))]).toEqual([table, columns?.c]);
      }
    } finally {
      runner?.close();
    }
  }

  const built = (report: PublicDbReport) =>
    report.parts.filter((p) => p.built).map((p) => p.name.slice(0, -17));
  const names = (report: PublicDbReport) => report.parts.map((p) => p.name.slice(0, -17));

  it("answers what the warehouse holds, each night, and builds a part only when its period closes", async () => {
    await addFixtureNight(warehouse, "2026-10-31");
    const saturday = await buildAndCompare("2026-10-31");
    // 90 nights kept: from 2026-08-03, a Monday, so every week from then to the open one (from 2026-10-26) is whole
    expect(names(saturday)).toEqual([
      ...[
        "08-03",
        "08-10",
        "08-17",
        "08-24",
        "08-31",
        "09-07",
        "09-14",
        "09-21",
        "09-28",
        "10-05",
        "10-12",
        "10-19",
      ].map((monday) => `snapshots-2026-${monday}`),
      "contributors-2026-07",
      "contributors-2026-08",
      "contributors-2026-09",
      "transitions-2026-06",
      "transitions-2026-09",
    ]);
    expect(saturday.tables.snapshots).toBe(5 + 90 * 20);

    await addFixtureNight(warehouse, "2026-11-01");
    const sunday = await buildAndCompare("2026-11-01");
    // October closes for contributors, releases and transitions; the week from 2026-08-03 lost its first night to
    // the retention: it goes back into the nightly part rather than into a new part every night until it leaves
    const october = ["contributors-2026-10", "releases-2026-10", "transitions-2026-10"];
    expect(built(sunday)).toEqual(october);
    expect(names(sunday)).toEqual([
      ...names(saturday).slice(1, 15),
      october[0],
      october[1],
      "transitions-2026-06",
      "transitions-2026-09",
      october[2],
    ]);

    await addFixtureNight(warehouse, "2026-11-02");
    const monday = await buildAndCompare("2026-11-02");
    expect(built(monday)).toEqual(["snapshots-2026-10-26"]);

    // the parts the kept nights (tonight's and the one before) name, and no other
    const kept = new Set([...sunday.parts, ...monday.parts].map((p) => `${p.name}.duckdb`));
    expect((await readdir(publicDbPaths(temp.dir).partsDir)).sort()).toEqual([...kept].sort());

    // A runner that restored its state has no part; the target the night is published to holds the earlier nights'
    // (all but one here): only the one it lacks is built, and the night reads the same once its parts are beside it.
    const target = createLocalStorage(path.join(temp.dir, "target"));
    const [lacking, ...published] = monday.parts;
    for (const part of published)
      await target.putFile(publicDbPartKey(part.name), publicDbPaths(temp.dir).partFile(part.name));
    const fresh = path.join(temp.dir, "fresh-runner");
    const again = await publishPublicDb({ db: warehouse, stateRoot: fresh, runDate: "2026-11-02", target });
    expect(again.parts.map((p) => [p.name, p.built, p.held])).toEqual(
      monday.parts.map((p) => [p.name, p.name === lacking?.name, p.name !== lacking?.name]),
    );
    expect(again.tables).toEqual(monday.tables);
    expect(again.parts.map((p) => p.bytes)).toEqual(monday.parts.map((p) => p.bytes));
    expect(await readdir(publicDbPaths(fresh).partsDir)).toEqual([`${lacking?.name}.duckdb`]);
    // read before the held parts are there: the reader names the part it lacks
    await expect(openQueryRunner({ file: again.file, threads: 1 })).rejects.toThrow(
      `reads the history part ${published[0]?.name}, which ${publicDbPaths(fresh).partsDir} lacks`,
    );
    for (const part of published)
      await writeFile(
        publicDbPaths(fresh).partFile(part.name),
        (await target.get(publicDbPartKey(part.name))) ?? "",
      );
    await compare(again.file);
  }, 120_000);
});
