// Rendering a collection from SQL over a real in-memory DuckDB: the files of every declared partition (empty ones
// too), the index built from the meta columns, and the rows refused with a message naming what is wrong.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Db, openDb } from "../core/db.ts";
import { decodeCollectionIndex } from "./collection-index.ts";
import { type RenderedFile, renderCollection } from "./render-collection.ts";
import { type CollectionSpec, PASSES_AT_REPOSITORIES } from "./route-spec.ts";

let db: Db;
const files = new Map<string, Buffer>();
const emit = async (file: RenderedFile) => {
  files.set(file.path, file.body);
};
const record = z.strictObject({ name: z.string(), score: z.int().min(0).max(100) });
let sqlDir: string;

beforeEach(async () => {
  sqlDir = await mkdtemp(path.join(tmpdir(), "collection-sql-"));
  db = await openDb(":memory:");
  files.clear();
  await db.run(
    "CREATE TABLE t AS SELECT * FROM (VALUES ('a', 'x', 90, 'red'), ('a', 'y', 70, NULL), ('a', 'z', 70, 'red'), ('c', 'w', 10, 'blue')) v(part, name, score, colour)",
  );
});
afterEach(async () => {
  db.close();
  await rm(sqlDir, { recursive: true, force: true });
});

/** A collection over table t whose SQL (in a temp folder) is `select`. */
async function collection(select: string, extra: Partial<CollectionSpec> = {}): Promise<CollectionSpec> {
  const name = `test_${Math.random().toString(36).slice(2, 8)}`;
  await writeFile(path.join(sqlDir, `${name}.sql`), select);
  return {
    name,
    sql: name,
    record,
    partitions: ["a", "b", "c"],
    filters: ["colour"],
    rank: { order: "desc" },
    keys: true,
    ...extra,
  };
}

const SELECT = `SELECT part AS _partition, colour AS _f_colour, score AS _rank, [name] AS _keys,
  to_json({name: name, score: score})::VARCHAR AS record FROM t ORDER BY part, score DESC, name`;

describe("renderCollection", () => {
  it("renders in passes over groups of partitions the same files as in one statement", async () => {
    const passed = `SELECT * FROM (${SELECT}) WHERE getvariable('partitions') IS NULL OR list_contains(getvariable('partitions'), _partition)`;
    const whole = await renderCollection(db, await collection(passed), emit, { validate: "all", sqlDir });
    const once = new Map([...files].map(([p, body]) => [p.replace(/^collections\/[^/]+\//, ""), body]));
    files.clear();
    // 2 passes at scale: of partitions a and b, then c
    const inPasses = await renderCollection(db, await collection(passed, { passes: 2 }), emit, {
      validate: "all",
      sqlDir,
      repositories: PASSES_AT_REPOSITORIES,
    });
    expect(new Map([...files].map(([p, body]) => [p.replace(/^collections\/[^/]+\//, ""), body]))).toEqual(
      once,
    );
    expect(inPasses.partitions).toEqual(whole.partitions);
    // the variable is gone after the passes: a later statement sees every partition
    expect(await db.all("SELECT getvariable('partitions') AS v")).toEqual([{ v: null }]);
  });

  it("renders a night within one pass's repositories in one statement", async () => {
    // the statement sees a pass's partitions only when rendered in passes: then it answers nothing
    const onePass = `SELECT * FROM (${SELECT}) WHERE getvariable('partitions') IS NULL`;
    const spec = await collection(onePass, { passes: 4 });
    const share = PASSES_AT_REPOSITORIES / 4;
    const small = await renderCollection(db, spec, emit, { validate: "all", sqlDir, repositories: share });
    expect(small.partitions).toEqual({ a: 3, b: 0, c: 1 });
    const larger = await renderCollection(db, spec, emit, {
      validate: "all",
      sqlDir,
      repositories: share + 1,
    });
    expect(larger.partitions).toEqual({ a: 0, b: 0, c: 0 });
  });

  it("renders every declared partition, empty ones included, with its index", async () => {
    const spec = await collection(SELECT);
    const summary = await renderCollection(db, spec, emit, { validate: "all", sqlDir });
    expect(summary).toMatchObject({
      partitions: { a: 3, b: 0, c: 1 },
      records: 4,
      exampleKey: "x",
      examplePartition: "a",
    });
    expect(JSON.parse(files.get(`collections/${spec.name}/a.json`)?.toString() ?? "")).toEqual([
      { name: "x", score: 90 },
      { name: "y", score: 70 },
      { name: "z", score: 70 },
    ]);
    expect(files.get(`collections/${spec.name}/b.json`)?.toString()).toBe("[]");
    const index = decodeCollectionIndex(files.get(`collections/${spec.name}/a.idx`) as Buffer);
    expect([...(index.rank ?? [])]).toEqual([90, 70, 70]);
    expect([...(index.filters.get("colour")?.get("red") ?? [])]).toEqual([0, 2]);
    expect(index.keys?.get("y")).toBe(1);
  });

  it("refuses a partition that comes back after another", async () => {
    await db.run("INSERT INTO t VALUES ('c', 'v', 80, 'blue')");
    const spec = await collection(SELECT.replace("ORDER BY part, score DESC, name", "ORDER BY score DESC"));
    await expect(renderCollection(db, spec, emit, { validate: "all", sqlDir })).rejects.toThrow(
      /not contiguous/,
    );
  });

  it("refuses a partition it was not told of", async () => {
    const spec = await collection(SELECT, { partitions: ["a", "b"] });
    await expect(renderCollection(db, spec, emit, { validate: "all", sqlDir })).rejects.toThrow(
      'partition "c" is not one of the declared partitions',
    );
  });

  it("refuses ranks out of their order", async () => {
    const spec = await collection(SELECT.replace("score DESC, name", "score ASC, name"));
    await expect(renderCollection(db, spec, emit, { validate: "all", sqlDir })).rejects.toThrow(
      /breaks the desc order/,
    );
  });

  it("refuses a record that does not match its schema, naming it", async () => {
    await db.run("UPDATE t SET score = 101 WHERE name = 'z'");
    const spec = await collection(SELECT.replace("score DESC", "least(score, 100) DESC"), {
      rank: undefined,
    });
    await expect(renderCollection(db, spec, emit, { validate: "all", sqlDir })).rejects.toThrow(
      /record 0 of a does not match its schema: score: Too big/,
    );
  });

  it("names the SQL file when its query fails", async () => {
    const spec = await collection("SELECT * FROM missing_table");
    await expect(renderCollection(db, spec, emit, { validate: "all", sqlDir })).rejects.toThrow(
      new RegExp(`Rendering the ${spec.name} collection \\(publish/sql/${spec.name}.sql\\) failed`),
    );
  });
});
