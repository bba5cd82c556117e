// renderDatasets on a small warehouse and a three-night history, written through the real release writer: every
// Parquet file opened with DuckDB agrees with its index entry, the Arrow file with the Parquet one, and a second
// release links the unchanged nights from the first while a rewritten night is read again.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, sqlLiteral } from "../core/db.ts";
import { createLocalStorage } from "../core/storage.ts";
import { FIXTURE_RUN_DATE, makeTempDir } from "../pipeline/public-testing.ts";
import {
  type DatasetEntry,
  type DatasetFile,
  datasetIndex,
  datasetIndexSchema,
  renderDatasets,
} from "./datasets.ts";
import type { ManifestFile } from "./layout.ts";
import { createReleaseWriter, type PreviousRelease } from "./release-writer.ts";
import { fixtureDb } from "./testing.ts";

const BASE = "https://data.example.org/r1";
const NIGHTS = ["2026-10-15", "2026-10-25", "2026-11-01"];
const night = (date: string) => `datasets/history/date=${date}/snapshots.parquet`;
const MONTHS = ["2026-10", "2026-11"];
const month = (m: string) => `datasets/history/snapshots/month=${m}/snapshots.parquet`;
const CANONICAL = [
  "hive/mu",
  "acme/alpha-server",
  "acme/beta-sdk",
  "bolt/gamma",
  "core/delta",
  "core/epsilon",
  "dyn/zeta",
  "echo/eta",
  "echo/theta",
  "fox/iota",
  "fox/kappa",
  "gnu/lambda",
];
const QUALITY_COLUMNS = [
  ["run_date", "DATE"],
  ["node_id", "VARCHAR"],
  ["full_name", "VARCHAR"],
  ["owner", "VARCHAR"],
  ["name", "VARCHAR"],
  ["slug", "VARCHAR"],
  ["description", "VARCHAR"],
  ["stars", "BIGINT"],
  ["forks", "BIGINT"],
  ["language", "VARCHAR"],
  ["license", "VARCHAR"],
  ["domain", "VARCHAR"],
  ["subcategory", "VARCHAR"],
  ["stack_layer", "VARCHAR"],
  ["pypi_package", "VARCHAR"],
  ["downloads_monthly", "BIGINT"],
  ["maintenance_score", "INTEGER"],
  ["adoption_score", "INTEGER"],
  ["maturity_score", "INTEGER"],
  ["community_score", "INTEGER"],
  ["quality_score", "INTEGER"],
  ["quality_tier", "VARCHAR"],
].map(([name, type]) => ({ name: String(name), type: String(type) }));
const ARROW_TYPES: Record<string, string> = {
  DATE: "Date32<DAY>",
  VARCHAR: "Utf8",
  BIGINT: "Int64",
  INTEGER: "Int32",
};

let db: Db;
let temp: { dir: string; remove: () => Promise<void> };
let historyDir: string;
let packedDir: string;

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const describeFile = async (file: string, hive = false) =>
  (
    await db.all<{ column_name: string; column_type: string }>(
      `DESCRIBE SELECT * FROM read_parquet(${sqlLiteral(file)}, hive_partitioning = ${hive})`,
    )
  ).map((c) => ({ name: c.column_name, type: c.column_type }));
const describeTable = async (table: string) =>
  (await db.all<{ column_name: string; column_type: string }>(`DESCRIBE ${table}`)).map((c) => ({
    name: c.column_name,
    type: c.column_type,
  }));

/** Writes a night's history file as the nightly does: DuckDB COPY to a temp name, then rename. */
async function writeNight(date: string): Promise<void> {
  const file = path.join(historyDir, "snapshots", `date=${date}`, "data.parquet");
  await mkdir(path.dirname(file), { recursive: true });
  await db.run(
    `COPY (SELECT * EXCLUDE (date) FROM snapshots WHERE date = DATE ${sqlLiteral(date)} ORDER BY node_id) TO ${sqlLiteral(`${file}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`,
  );
  await rename(`${file}.tmp`, file);
}

interface Run {
  items: { file: DatasetFile; entry: DatasetEntry }[];
  manifest: ManifestFile[];
  writer: ReturnType<typeof createReleaseWriter>;
}

/** Renders the datasets into releases/<id>/ of a local store, linking from `previous` as publish would. */
async function publishDatasets(id: string, previous?: PreviousRelease): Promise<Run> {
  const writer = createReleaseWriter(createLocalStorage(temp.dir), `releases/${id}/`, { previous });
  const items: Run["items"] = [];
  const ctx = { db, historyDir, baseUrl: `${BASE}/`, tempDir: temp.dir, packedDir };
  for await (const item of renderDatasets(previous ? { ...ctx, previous: previous.files } : ctx)) {
    items.push(item);
    await writer.write(item.file);
  }
  return { items, manifest: await writer.finish(), writer };
}

const released = (id: string, releasePath: string) => path.join(temp.dir, "releases", id, releasePath);
const entryAt = (run: Run, releasePath: string) => run.items.find((i) => i.entry.path === releasePath);

let first: Run;

beforeAll(async () => {
  temp = await makeTempDir("projintel-datasets-");
  historyDir = path.join(temp.dir, "history");
  packedDir = path.join(temp.dir, "packed-history");
  db = await fixtureDb(undefined, FIXTURE_RUN_DATE); // score_quality and the public tables
  for (const date of NIGHTS) await writeNight(date);
  first = await publishDatasets("A");
});
afterAll(async () => {
  db.close();
  await temp.remove();
});

describe("renderDatasets", () => {
  it("renders the quality, projects and history files with their URLs and content types", () => {
    expect(first.items.map((i) => [i.entry.path, i.entry.name, i.entry.format, i.file.contentType])).toEqual([
      ["datasets/quality.parquet", "quality", "parquet", "application/vnd.apache.parquet"],
      ["datasets/quality.arrow", "quality", "arrow", "application/vnd.apache.arrow.file"],
      ["datasets/projects.parquet", "projects", "parquet", "application/vnd.apache.parquet"],
      ...NIGHTS.map((d) => [night(d), "snapshots", "parquet", "application/vnd.apache.parquet"]),
      ...MONTHS.map((m) => [month(m), "snapshots", "parquet", "application/vnd.apache.parquet"]),
    ]);
    for (const { entry } of first.items) expect(entry.url).toBe(`${BASE}/${entry.path}`);
    expect(first.items.map((i) => i.entry.date)).toEqual([
      undefined,
      undefined,
      undefined,
      ...NIGHTS,
      undefined,
      undefined,
    ]);
    expect(first.items.map((i) => i.entry.month)).toEqual([...Array(6).fill(undefined), ...MONTHS]);
  });

  it("gives every file the bytes and sha256 the release holds, as the writer's manifest records them", async () => {
    for (const { entry } of first.items) {
      const bytes = await readFile(released("A", entry.path));
      expect([entry.path, entry.bytes, entry.sha256]).toEqual([entry.path, bytes.length, sha(bytes)]);
      expect(first.manifest.find((f) => f.path === entry.path)).toMatchObject({
        bytes: entry.bytes,
        sha256: entry.sha256,
      });
    }
  });

  it("writes Parquet files whose rows and columns, read by DuckDB, are exactly their index entries", async () => {
    const parquet = first.items.filter((i) => i.entry.format === "parquet");
    for (const { entry } of parquet) {
      const file = sqlLiteral(released("A", entry.path));
      const [count] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM read_parquet(${file})`);
      expect([entry.path, count?.n]).toEqual([entry.path, entry.rows]);
      expect(await describeFile(released("A", entry.path))).toEqual(entry.columns);
    }
    expect(parquet.map((i) => i.entry.rows)).toEqual([12, 6, 1, 1, 2, 2, 2]);
    expect(entryAt(first, "datasets/quality.parquet")?.entry.columns).toEqual(QUALITY_COLUMNS);
    expect(entryAt(first, "datasets/projects.parquet")?.entry.columns).toEqual(
      await describeTable("projects"),
    );
    const snapshotColumns = (await describeTable("snapshots")).filter((c) => c.name !== "date");
    for (const date of NIGHTS) expect(entryAt(first, night(date))?.entry.columns).toEqual(snapshotColumns);
  });

  it("orders quality canonically with the values the API serves, and projects by full_name", async () => {
    const quality = sqlLiteral(released("A", "datasets/quality.parquet"));
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${quality}`);
    expect(rows.map((r) => r.full_name)).toEqual(CANONICAL);
    expect(rows[0]).toMatchObject({ full_name: "hive/mu", description: null, downloads_monthly: null });
    expect(rows[1]).toMatchObject({
      run_date: new Date(`${FIXTURE_RUN_DATE}T00:00:00Z`),
      node_id: "node-2",
      owner: "acme",
      slug: "acme--alpha-server",
      description: "alpha-server does things",
      stars: 5000,
      forks: 500,
      domain: "mcp",
      stack_layer: "interface",
      downloads_monthly: 15000,
      maintenance_score: 25,
      community_score: 17,
      quality_score: 92,
      quality_tier: "verified",
    });
    const projects = sqlLiteral(released("A", "datasets/projects.parquet"));
    expect((await db.all(`SELECT full_name FROM ${projects}`)).map((r) => r.full_name)).toEqual([
      "acme/agentkit",
      "acme/evalsuite",
      "acme/ragbox",
      "langchain-ai/langchain",
      "oldlab/vecstore",
      "ollama/ollama",
    ]);
  });

  it("keeps the night out of a history file and in its path, which DuckDB reads as the date column", async () => {
    const file = released("A", night("2026-11-01"));
    expect((await describeFile(file, true)).at(-1)).toEqual({ name: "date", type: "DATE" });
    const rows = await db.all(`SELECT date, node_id, stars FROM ${sqlLiteral(file)} ORDER BY node_id`);
    expect(rows).toEqual([
      { date: new Date("2026-11-01T00:00:00Z"), node_id: "R_1", stars: 150000 },
      { date: new Date("2026-11-01T00:00:00Z"), node_id: "R_3", stars: 5000 },
    ]);
  });

  it("writes the quality records as an Arrow file holding the same rows and values as the Parquet one", async () => {
    const entry = entryAt(first, "datasets/quality.arrow")?.entry as DatasetEntry;
    const table = tableFromIPC(await readFile(released("A", entry.path)));
    expect(table.numRows).toBe(12);
    expect(entry.rows).toBe(12);
    expect(table.schema.fields.map((f) => ({ name: f.name, type: String(f.type) }))).toEqual(entry.columns);
    expect(entry.columns).toEqual(QUALITY_COLUMNS.map((c) => ({ name: c.name, type: ARROW_TYPES[c.type] })));
    // every value against DuckDB's reading of the Parquet file: dates as days, 64-bit integers as numbers
    const parquet = await db.all<Record<string, unknown>>(
      `SELECT * FROM ${sqlLiteral(released("A", "datasets/quality.parquet"))}`,
    );
    const plain = (v: unknown, type: string) =>
      v === null
        ? null
        : type === "DATE"
          ? new Date(v as number | Date).toISOString().slice(0, 10)
          : typeof v === "bigint"
            ? Number(v)
            : v;
    for (const { name, type } of QUALITY_COLUMNS) {
      const child = table.getChild(name);
      const arrow = Array.from({ length: table.numRows }, (_, i) => plain(child?.get(i), type));
      expect([name, arrow]).toEqual([name, parquet.map((r) => plain(r[name], type))]);
    }
    expect(table.getChild("description")?.get(0)).toBeNull();
    expect(table.getChild("stars")?.get(1)).toBe(5000n);
  });

  it("renders no history file when the history holds no night yet", async () => {
    const ctx = {
      db,
      historyDir: path.join(temp.dir, "no-history"),
      baseUrl: BASE,
      tempDir: temp.dir,
      packedDir,
    };
    const paths: string[] = [];
    for await (const { entry } of renderDatasets(ctx)) paths.push(entry.path);
    expect(paths).toEqual([
      "datasets/quality.parquet",
      "datasets/quality.arrow",
      "datasets/projects.parquet",
    ]);
  });
});

describe("the history packed by month", () => {
  it("holds each month's nights with the night as a date column, sorted by full_name and date", async () => {
    const file = sqlLiteral(released("A", month("2026-10")));
    const columns = await describeFile(released("A", month("2026-10")));
    expect(columns[0]).toEqual({ name: "date", type: "DATE" });
    expect(columns.slice(1)).toEqual(await describeFile(released("A", night("2026-10-15"))));
    const rows = await db.all<{ full_name: string; date: string }>(
      `SELECT full_name, date::VARCHAR AS date FROM read_parquet(${file})`,
    );
    const expected = await db.all<{ full_name: string; date: string }>(
      "SELECT full_name, date::VARCHAR AS date FROM snapshots WHERE date IN ('2026-10-15', '2026-10-25') ORDER BY full_name, date, node_id",
    );
    expect(rows).toEqual(expected);
    expect(entryAt(first, month("2026-10"))?.entry.rows).toBe(expected.length);
    // the month is in the path, which DuckDB reads as a column too
    const [hive] = await db.all<{ month: string }>(
      `SELECT DISTINCT month::VARCHAR AS month FROM read_parquet(${file}, hive_partitioning = true)`,
    );
    expect(hive?.month).toBe("2026-10");
  });

  it("packs the same nights into the same bytes, so a closed month never changes", async () => {
    const again = await publishDatasets("A-again");
    for (const m of MONTHS) expect(entryAt(again, month(m))?.entry).toEqual(entryAt(first, month(m))?.entry);
    // packed afresh in an empty folder (a new runner), the bytes are the same
    const fresh = {
      db,
      historyDir,
      baseUrl: BASE,
      tempDir: temp.dir,
      packedDir: path.join(temp.dir, "packed-2"),
    };
    const entries: DatasetEntry[] = [];
    for await (const { entry } of renderDatasets(fresh)) if (entry.month) entries.push(entry);
    expect(entries.map((e) => e.sha256)).toEqual(MONTHS.map((m) => entryAt(first, month(m))?.entry.sha256));
  });

  it("writes row groups whose full_name ranges do not overlap, so one project is in one or two of them", async () => {
    const history = path.join(temp.dir, "big-history");
    for (const date of ["2026-09-01", "2026-09-02"]) {
      const file = path.join(history, "snapshots", `date=${date}`, "data.parquet");
      await mkdir(path.dirname(file), { recursive: true });
      await db.run(
        `COPY (SELECT 'N' || i AS node_id, 'o' || (i % 97) || '/p' || lpad(i::VARCHAR, 6, '0') AS full_name, i AS stars FROM range(50000) t(i)) TO ${sqlLiteral(file)} (FORMAT parquet)`,
      );
    }
    const ctx = {
      db,
      historyDir: history,
      baseUrl: BASE,
      tempDir: temp.dir,
      packedDir: path.join(temp.dir, "big-packed"),
    };
    const months: DatasetEntry[] = [];
    for await (const { entry } of renderDatasets(ctx)) if (entry.month) months.push(entry);
    expect(months.map((m) => [m.month, m.rows])).toEqual([["2026-09", 100_000]]);
    const groups = await db.all<{ min: string; max: string; rows: number }>(
      `SELECT stats_min_value AS min, stats_max_value AS max, row_group_num_rows::INTEGER AS rows
       FROM parquet_metadata(${sqlLiteral(path.join(temp.dir, "big-packed", "snapshots", "month=2026-09", "data.parquet"))})
       WHERE path_in_schema = 'full_name' ORDER BY row_group_id`,
    );
    expect(groups.map((g) => g.rows)).toEqual([32_768, 32_768, 32_768, 1_696]);
    for (let i = 1; i < groups.length; i++) {
      expect((groups[i - 1] as { max: string }).max <= (groups[i] as { min: string }).min).toBe(true);
    }
  });

  it("packs lifecycle and packages too, a file per month each, sorted by their project key and date", async () => {
    const history = path.join(temp.dir, "tables-history");
    const nights = ["2026-08-30", "2026-08-31", "2026-09-01"];
    const nightFile = (table: string, date: string) =>
      path.join(history, table, `date=${date}`, "data.parquet");
    for (const [i, date] of nights.entries()) {
      for (const table of ["lifecycle", "packages"])
        await mkdir(path.dirname(nightFile(table, date)), { recursive: true });
      // written in another order than the packed one, as the nightly does (by node_id; by registry and package)
      await db.run(
        `COPY (SELECT 'N' || lpad((9 - k)::VARCHAR, 2, '0') AS node_id, CASE WHEN k % 2 = 0 THEN 'growing' ELSE 'stable' END AS candidate_stage, false AS is_archived FROM range(10) t(k)) TO ${sqlLiteral(nightFile("lifecycle", date))} (FORMAT parquet)`,
      );
      await db.run(
        `COPY (SELECT r AS registry, 'pkg-' || k AS package, 'o/p' || (3 - k) AS repo_full_name, ${i * 10} + k AS downloads_monthly FROM (VALUES ('npm'), ('pypi')) v(r), range(3) t(k) ORDER BY registry, package) TO ${sqlLiteral(nightFile("packages", date))} (FORMAT parquet)`,
      );
    }
    const ctx = {
      db,
      historyDir: history,
      baseUrl: BASE,
      tempDir: temp.dir,
      packedDir: path.join(temp.dir, "tables-packed"),
    };
    const months: DatasetEntry[] = [];
    for await (const { entry } of renderDatasets(ctx)) if (entry.month) months.push(entry);
    expect(months.map((m) => [m.path, m.name, m.rows])).toEqual([
      ["datasets/history/lifecycle/month=2026-08/lifecycle.parquet", "lifecycle", 20],
      ["datasets/history/lifecycle/month=2026-09/lifecycle.parquet", "lifecycle", 10],
      ["datasets/history/packages/month=2026-08/packages.parquet", "packages", 12],
      ["datasets/history/packages/month=2026-09/packages.parquet", "packages", 6],
    ]);
    const packed = (table: string, month: string) =>
      sqlLiteral(path.join(temp.dir, "tables-packed", table, `month=${month}`, "data.parquet"));
    const lifecycle = await db.all<{ node_id: string; date: string }>(
      `SELECT node_id, date::VARCHAR AS date FROM read_parquet(${packed("lifecycle", "2026-08")})`,
    );
    expect(lifecycle.slice(0, 3)).toEqual([
      { node_id: "N00", date: "2026-08-30" },
      { node_id: "N00", date: "2026-08-31" },
      { node_id: "N01", date: "2026-08-30" },
    ]);
    const packages = await db.all<{ repo_full_name: string; registry: string; date: string }>(
      `SELECT repo_full_name, registry, date::VARCHAR AS date FROM read_parquet(${packed("packages", "2026-09")})`,
    );
    expect(packages.map((p) => `${p.repo_full_name} ${p.registry} ${p.date}`)).toEqual([
      "o/p1 npm 2026-09-01",
      "o/p1 pypi 2026-09-01",
      "o/p2 npm 2026-09-01",
      "o/p2 pypi 2026-09-01",
      "o/p3 npm 2026-09-01",
      "o/p3 pypi 2026-09-01",
    ]);
    // each entry's bytes and sha256 are the packed file's; packed again, a closed month keeps them
    for (const m of months) {
      const bytes = await readFile(
        path.join(temp.dir, "tables-packed", m.name, `month=${m.month}`, "data.parquet"),
      );
      expect([m.bytes, m.sha256]).toEqual([bytes.length, sha(bytes)]);
    }
    const again: DatasetEntry[] = [];
    for await (const { entry } of renderDatasets({
      ...ctx,
      packedDir: path.join(temp.dir, "tables-packed-2"),
    }))
      if (entry.month) again.push(entry);
    expect(again.map((m) => m.sha256)).toEqual(months.map((m) => m.sha256));
  });
});

describe("a later release", () => {
  it("links unchanged history nights from the previous release and reads a rewritten one again", async () => {
    await db.run(
      "INSERT INTO snapshots BY NAME SELECT DATE '2026-11-01' AS date, 'R_2' AS node_id, 'langchain-ai/langchain' AS full_name, 110000 AS stars, 88 AS quality_score",
    );
    await writeNight("2026-11-01");
    const previous = { prefix: "releases/A/", files: new Map(first.manifest.map((f) => [f.path, f])) };
    const second = await publishDatasets("B", previous);

    for (const date of NIGHTS.slice(0, 2)) {
      const [before, after] = [entryAt(first, night(date)), entryAt(second, night(date))];
      expect(after?.file.fingerprint).toBe(before?.file.fingerprint);
      expect(after?.entry).toEqual(before?.entry);
      // a hard link: the same file on disk in both releases
      expect((await stat(released("B", night(date)))).ino).toBe((await stat(released("A", night(date)))).ino);
    }
    const changed = entryAt(second, night("2026-11-01"));
    const bytes = await readFile(released("B", night("2026-11-01")));
    expect(changed?.file.fingerprint).not.toBe(entryAt(first, night("2026-11-01"))?.file.fingerprint);
    expect(changed?.entry).toMatchObject({ rows: 3, bytes: bytes.length, sha256: sha(bytes) });
    expect(changed?.entry.sha256).not.toBe(entryAt(first, night("2026-11-01"))?.entry.sha256);
    // quality, Arrow and projects come out byte for byte the same, so they are linked too; so is the closed month,
    // while the current one (its last night rewritten) is packed again
    expect(second.writer.stats).toMatchObject({ written: 2, reused: 6 });
    expect(entryAt(second, month("2026-10"))?.entry).toEqual(entryAt(first, month("2026-10"))?.entry);
    expect((await stat(released("B", month("2026-10")))).ino).toBe(
      (await stat(released("A", month("2026-10")))).ino,
    );
    expect(entryAt(second, month("2026-11"))?.entry).toMatchObject({ rows: 3 });
    expect(entryAt(second, month("2026-11"))?.entry.sha256).not.toBe(
      entryAt(first, month("2026-11"))?.entry.sha256,
    );
  });

  it("takes bytes and sha256 of a night with an unchanged fingerprint from the previous release, unread", async () => {
    const date = NIGHTS[0] as string;
    const before = first.manifest.find((f) => f.path === night(date)) as ManifestFile;
    const previous = new Map([[before.path, { ...before, bytes: 1, sha256: "f".repeat(64) }]]);
    const ctx = { db, historyDir, baseUrl: BASE, tempDir: temp.dir, packedDir, previous };
    for await (const { entry } of renderDatasets(ctx)) {
      if (entry.path === night(date))
        expect(entry).toMatchObject({ rows: 1, bytes: 1, sha256: "f".repeat(64) });
    }
  });
});

describe("datasetIndex", () => {
  it("lists the files sorted by path with the run, the history's nights and how to read them", () => {
    const index = datasetIndex(
      first.items.map((i) => i.entry),
      { runDate: FIXTURE_RUN_DATE, releaseId: "2026-11-01_20261102T031500Z" },
    );
    expect(datasetIndexSchema.parse(index)).toEqual(index);
    expect(index.files.map((f) => f.path)).toEqual([
      ...NIGHTS.map(night),
      ...MONTHS.map(month),
      "datasets/projects.parquet",
      "datasets/quality.arrow",
      "datasets/quality.parquet",
    ]);
    expect(index).toMatchObject({
      run_date: "2026-11-01",
      release_id: "2026-11-01_20261102T031500Z",
      history: { nights: 3, first: "2026-10-15", last: "2026-11-01", months: MONTHS },
    });
    expect(index.how_to_use[0]).toBe(
      `DuckDB reads a file straight from its URL: SELECT * FROM '${BASE}/datasets/quality.parquet' LIMIT 10;`,
    );
  });
});
