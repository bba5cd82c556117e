// GET /api/v1/tables over a release of the simulated world: each public table's rows equal count(*) on the warehouse,
// and its columns are exactly what a query on the public database (the file POST /api/v1/query reads) returns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openQueryRunner, type QueryRunner } from "../../core/query/index.ts";
import { PUBLIC_TABLES, resolvePublicDb } from "../../pipeline/public-db.ts";
import { itemEnvelope, publicTablesSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { PUBLIC_TABLE_DOCS } from "../public-table-docs.ts";

interface Table {
  name: string;
  description: string;
  rows: number;
  columns: { name: string; type: string; description: string | null }[];
}

let sim: SimApp;
let runner: QueryRunner;
// biome-ignore lint/suspicious/noExplicitAny: the body is checked against its schema in the first test.
let body: any;

beforeAll(async () => {
  sim = await sharedSimApp();
  const file = await resolvePublicDb(sim.stateDir, sim.runDate);
  runner = await openQueryRunner({ file: file?.path ?? "", threads: 1 });
  const res = await sim.app.inject({ url: "/api/v1/tables" });
  expect(res.statusCode).toBe(200);
  body = res.json();
}, 600_000);
afterAll(async () => {
  runner?.close();
  await sim?.close();
});

describe("GET /api/v1/tables", () => {
  it("lists the public tables in order, in the item envelope, on its schema", () => {
    expect(itemEnvelope(publicTablesSchema).safeParse(body).success).toBe(true);
    expect(body.meta).toMatchObject({ count: 1, query: {} });
    expect(body.data.run_date).toBe(sim.runDate);
    expect(body.data.tables.map((t: Table) => t.name)).toEqual([...PUBLIC_TABLES]);
    expect(body.data.how_to_query).toContain("POST /api/v1/query");
  });

  it("gives each table's row count as count(*) on the warehouse and on the public database", async () => {
    for (const table of body.data.tables as Table[]) {
      const [row] = await sim.db.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table.name}`);
      const published = await runner.run(`SELECT count(*) AS n FROM ${table.name}`);
      expect([table.name, table.rows]).toEqual([table.name, Number(row?.n)]);
      expect([table.name, table.rows]).toEqual([table.name, published.rows[0]?.[0]]);
    }
    const projects = (body.data.tables as Table[]).find((t) => t.name === "projects");
    expect(projects?.rows).toBeGreaterThan(200);
  });

  it("gives each table's columns with the names and types a query on the public database returns", async () => {
    for (const table of body.data.tables as Table[]) {
      const result = await runner.run(`SELECT * FROM ${table.name} LIMIT 0`);
      expect(table.columns.map(({ name, type }) => ({ name, type }))).toEqual(result.columns);
    }
    const projects = (body.data.tables as Table[]).find((t) => t.name === "projects");
    expect(projects?.columns.find((c) => c.name === "topics")).toEqual({
      name: "topics",
      type: "VARCHAR[]",
      description: "GitHub topics",
    });
  });

  it("describes every column, and describes no column the tables lack", () => {
    for (const table of body.data.tables as Table[]) {
      const docs = PUBLIC_TABLE_DOCS[table.name as keyof typeof PUBLIC_TABLE_DOCS];
      expect(table.description).toBe(docs.description);
      expect(
        table.columns.filter((c) => c.description === null).map((c) => `${table.name}.${c.name}`),
      ).toEqual([]);
      expect(Object.keys(docs.columns).sort()).toEqual(table.columns.map((c) => c.name).sort());
    }
  });
});
