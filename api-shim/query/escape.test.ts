// Escape attempts through POST /api/v1/query over real HTTP: reading files, attaching, installing or loading,
// changing settings, writing (COPY, EXPORT, CHECKPOINT), more statements hidden by comments, catalog functions
// that show paths, SQL run from text, and queries that would never end or fill memory. Each is refused or bounded,
// no answer shows a server path, and nothing on disk changes.
import { readdir } from "node:fs/promises";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nestedStructSql } from "../../core/query/testing.ts";
import { SIM_RELEASE_DATE } from "../../test/sim-release.ts";
import { fileList, type QueryShim, queryShim } from "./testing.ts";

/** The shim's own bookkeeping in the state folder, which serving requests updates by design. */
const SHIM_FILES = ["quotas", "keys.jsonl", "server-secret", "feedback.jsonl"];
const DEADLINE_MS = 2_000;
const LEAK = "projintel-escape-leak";

let shim: QueryShim;
let before: string[];
let tmpBefore: string[];

beforeAll(async () => {
  shim = await queryShim({ deadlineMs: DEADLINE_MS, workers: 2, perCaller: 2 });
  before = await fileList(shim.stateDir, SHIM_FILES);
  tmpBefore = (await readdir(os.tmpdir())).filter((n) => n.startsWith(LEAK));
}, 600_000);
afterAll(() => shim?.close());

/** [attempt, expected code, text the message must contain]. */
function attempts(state: string): [string, string, string][] {
  const file = `${state}/public/${SIM_RELEASE_DATE}.duckdb`;
  return [
    ["SELECT * FROM read_csv('/etc/passwd')", "query_rejected", "read_csv() is not allowed"],
    ["SELECT * FROM read_csv_auto('/etc/passwd')", "query_rejected", "read_csv_auto() is not allowed"],
    ["SELECT * FROM read_text('/etc/passwd')", "query_rejected", "read_text() is not allowed"],
    [`SELECT * FROM read_blob('${file}')`, "query_rejected", "read_blob() is not allowed"],
    [`SELECT content FROM read_blob('public/${SIM_RELEASE_DATE}.duckdb')`, "query_rejected", "read_blob()"],
    ["SELECT * FROM glob('/*')", "query_rejected", "glob() is not allowed"],
    ["SELECT * FROM read_parquet('/tmp/x.parquet')", "query_rejected", "read_parquet() is not allowed"],
    ["SELECT * FROM read_json('/etc/hosts')", "query_rejected", "read_json() is not allowed"],
    [
      "SELECT * FROM parquet_metadata('/tmp/x.parquet')",
      "query_rejected",
      "parquet_metadata() is not allowed",
    ],
    ["SELECT * FROM sniff_csv('/etc/passwd')", "query_rejected", "sniff_csv() is not allowed"],
    ["SELECT * FROM '/etc/passwd'", "query_rejected", "Reading a file or URL is not allowed"],
    [`SELECT * FROM 'public/${SIM_RELEASE_DATE}.duckdb'`, "query_rejected", "Reading a file or URL"],
    ["SELECT * FROM 'https://example.com/data.csv'", "query_rejected", "Reading a file or URL"],
    [`ATTACH '/tmp/${LEAK}.duckdb' AS evil`, "query_rejected", "not ATTACH"],
    ["ATTACH ':memory:' AS scratch", "query_rejected", "not ATTACH"],
    ["INSTALL httpfs", "query_rejected", "not INSTALL"],
    ["LOAD httpfs", "query_rejected", "not LOAD"],
    ["SET enable_external_access = true", "query_rejected", "not SET"],
    ["RESET lock_configuration", "query_rejected", "not RESET"],
    ["SET GLOBAL memory_limit = '100GB'", "query_rejected", "not SET"],
    [`COPY projects TO '${state}/${LEAK}.csv'`, "query_rejected", "not COPY"],
    [`COPY (SELECT 1) TO '/tmp/${LEAK}.parquet' (FORMAT parquet)`, "query_rejected", "not COPY"],
    [`EXPORT DATABASE '${state}/${LEAK}'`, "query_rejected", "not EXPORT"],
    ["PRAGMA database_list", "query_rejected", "not PRAGMA"],
    ["SELECT 1; SELECT 2", "query_rejected", "the query holds 2"],
    [`SELECT 1; ATTACH '/tmp/${LEAK}.duckdb' AS x`, "query_rejected", "the query holds 2"],
    ["SELECT 1 /* ; */ ; DROP TABLE projects", "query_rejected", "the query holds 2"],
    [`-- a comment\nCOPY projects TO '/tmp/${LEAK}.csv'`, "query_rejected", "not COPY"],
    ["/* SELECT */ PRAGMA enable_profiling", "query_rejected", "not PRAGMA"],
    ["SELECT getenv('HOME')", "query_rejected", "getenv() is not allowed"],
    ["SELECT current_setting('home_directory')", "query_rejected", "current_setting() is not allowed"],
    ["SELECT * FROM duckdb_settings()", "query_rejected", "duckdb_settings() is not allowed"],
    ["SELECT path FROM duckdb_databases()", "query_rejected", "duckdb_databases() is not allowed"],
    ["SELECT * FROM duckdb_databases", "query_rejected", "The view duckdb_databases is not allowed"],
    ["SELECT * FROM system.main.duckdb_databases", "query_rejected", "duckdb_databases is not allowed"],
    ["SELECT * FROM pragma_database_list", "query_rejected", "pragma_database_list is not allowed"],
    ["SELECT * FROM pg_settings", "query_rejected", "The view pg_settings is not allowed"],
    [
      "SELECT setting FROM pg_catalog.pg_settings WHERE name = 'secret_directory'",
      "query_rejected",
      "(through function duckdb_settings())",
    ],
    ["SELECT datname FROM pg_catalog.pg_database", "query_rejected", "The view pg_database is not allowed"],
    [nestedStructSql(8, 5_000), "query_rejected", "column names and types alone take"],
    ["SELECT * FROM pragma_database_size()", "query_rejected", "pragma_database_size() is not allowed"],
    ["SELECT * FROM duckdb_extensions()", "query_rejected", "duckdb_extensions() is not allowed"],
    ["SELECT * FROM duckdb_temporary_files()", "query_rejected", "duckdb_temporary_files() is not allowed"],
    [
      "SELECT * FROM query('SELECT * FROM read_text(''/etc/passwd'')')",
      "query_rejected",
      "query() is not allowed",
    ],
    ["SELECT * FROM query_table('projects')", "query_rejected", "query_table() is not allowed"],
    // issue 35: table macros that read a table named by text, walked from duckdb_functions()
    [
      "SELECT * FROM histogram_values('duckdb_databases', replace(path,'/','|'), technique := 'sample')",
      "query_rejected",
      "histogram_values() is not allowed: it reads a table named by text (through function query_table())",
    ],
    [
      "SELECT * FROM histogram_values('pg_settings', name||'='||setting, technique := 'sample')",
      "query_rejected",
      "histogram_values() is not allowed",
    ],
    ["SELECT * FROM histogram('duckdb_settings', value)", "query_rejected", "histogram() is not allowed"],
    ["SELECT * FROM duckdb_table_sample('projects')", "query_rejected", "duckdb_table_sample() is not"],
    ["SELECT * FROM sql_auto_complete('SELECT * FROM ''/e')", "query_rejected", "sql_auto_complete() is not"],
    [
      "SELECT json_execute_serialized_sql('{}')",
      "query_rejected",
      "json_execute_serialized_sql() is not allowed",
    ],
    ["CALL pragma_version()", "query_rejected", "not CALL"],
    ["CREATE MACRO evil(x) AS x", "query_rejected", "not CREATE"],
    ["CREATE TEMP TABLE t AS SELECT 1", "query_rejected", "not CREATE"],
    ["CHECKPOINT", "query_rejected", "not CHECKPOINT"],
    ["SELECT * FROM checkpoint()", "query_rejected", "checkpoint() is not allowed"],
    ["DETACH public", "query_rejected", "not DETACH"],
    ["USE memory", "query_rejected", "not USE"],
    ["DROP TABLE projects", "query_rejected", "not DROP"],
    ["UPDATE projects SET stars = 0", "query_rejected", "not UPDATE"],
    ["EXPLAIN ANALYZE SELECT 1", "query_rejected", "not EXPLAIN"],
    ["SELECT * FROM \"read_text\"('/etc/passwd')", "query_rejected", "read_text() is not allowed"],
    ["SELECT * FROM READ_TEXT('/etc/passwd')", "query_rejected", "is not allowed: it reads files"],
    ["WITH x AS (SELECT * FROM read_blob('/etc/hostname')) SELECT * FROM x", "query_rejected", "read_blob()"],
    ["SELECT (SELECT content FROM read_text('/etc/passwd')) AS c", "query_rejected", "read_text()"],
    ["SELECT * FROM projects WHERE full_name IN (SELECT file FROM glob('/*'))", "query_rejected", "glob()"],
    ["DESCRIBE SELECT * FROM read_text('/etc/passwd')", "query_rejected", "read_text()"],
    ["SELECT * FROM no_such_table", "query_rejected", "Table with name no_such_table does not exist"],
    ["SELECT * FROM elsewhere.main.projects", "query_rejected", "The query failed"],
    ["SELECT count(*) FROM range(1000000000000) a", "query_timeout", `${DEADLINE_MS} ms deadline`],
    [
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r",
      "query_timeout",
      "deadline",
    ],
    ["SELECT count(*) FROM range(100000) a, range(100000) b, range(100000) c", "query_timeout", "deadline"],
  ];
}

describe("escape attempts through POST /api/v1/query", () => {
  it("refuses or bounds every one, shows no server path, and changes nothing on disk", async () => {
    const list = attempts(shim.stateDir);
    expect(list.length).toBeGreaterThanOrEqual(60);
    for (const [sql, code, contains] of list) {
      const res = await shim.post({ sql });
      const error = res.body.detail?.error ?? {};
      expect([sql, res.status, error.code], sql).toEqual([sql, code === "query_timeout" ? 504 : 400, code]);
      expect(error.message, sql).toContain(contains);
      const text = JSON.stringify(res.body);
      expect(text, sql).not.toContain(shim.stateDir);
      expect(text, sql).not.toContain("/etc/passwd");
      expect(text, sql).not.toContain(LEAK);
      // a worker killed at the deadline is being replaced: the next attempt gets the whole of its own deadline
      if (code === "query_timeout") await shim.pool.start();
    }
    expect(await fileList(shim.stateDir, SHIM_FILES)).toEqual(before);
    expect((await readdir(os.tmpdir())).filter((n) => n.startsWith(LEAK))).toEqual(tmpBefore);
  }, 300_000);

  it("bounds what runs: a huge result is cut at the caps, the catalog shows no path", async () => {
    await shim.pool.start();
    const huge = await shim.post({ sql: "SELECT * FROM range(100000) a, range(100000) b" });
    expect([huge.status, huge.body.meta.count, huge.body.meta.truncated]).toEqual([200, 1000, true]);
    const wide = await shim.post({ sql: "SELECT repeat('x', 100000) AS s FROM range(100)" });
    expect([wide.status, wide.body.meta.count, wide.body.meta.truncated]).toEqual([200, 9, true]);
    // the 17 and 34 MB of types with no row: refused, or stopped at the deadline on a slow machine
    for (const levels of [14, 15]) {
      const deep = await shim.post({ sql: nestedStructSql(levels) });
      const { code } = deep.body.detail.error;
      expect([deep.status, code]).toEqual([
        code === "query_timeout" ? 504 : 400,
        expect.stringMatching(/^query_(rejected|timeout)$/),
      ]);
      await shim.pool.start();
    }
    // a 1 GB string: stopped by the deadline or by the worker's memory bound, whichever this machine reaches first
    // (pool.test.ts holds each apart)
    const gigabyte = await shim.post({ sql: "SELECT repeat('x', 1000000000) AS s" });
    const stopped = gigabyte.body.detail.error.code === "query_timeout" ? 504 : 400;
    expect([gigabyte.status, gigabyte.body.detail.error.message]).toEqual([
      stopped,
      expect.stringMatching(/ms deadline and was stopped|MiB of memory a query may use and was stopped/),
    ]);
    await shim.pool.start();
    // bytes, not UTF-16 code units: 300,000 euro signs are 900,000 bytes, so one row and no second
    const euros = await shim.post({ sql: "SELECT repeat('€', 300000) AS s FROM range(2)" });
    expect([euros.status, euros.body.meta.count, euros.body.meta.truncated]).toEqual([200, 1, true]);
    expect(Buffer.byteLength(JSON.stringify(euros.body))).toBeLessThan(1_000_000 + 2_000);
    const catalog = await shim.post({
      sql: "SELECT current_database() AS db, (SELECT count(*) FROM duckdb_tables()) AS tables, (SELECT list(DISTINCT catalog_name) FROM information_schema.schemata) AS catalogs",
    });
    expect(catalog.body.data.rows[0][0]).toBe("public");
    expect(JSON.stringify(catalog.body)).not.toContain(shim.stateDir);
    expect(JSON.stringify(catalog.body)).not.toContain(`${SIM_RELEASE_DATE}.duckdb`);
  });
});

describe("the catalog a query sees (issue 35, item 9)", () => {
  it("refuses every way to a path or setting of the host, and what it keeps shows the public tables and none", async () => {
    const host = [shim.stateDir, process.cwd(), `${os.homedir()}/`, "stored_secrets", ".duckdb/extensions"];
    const refused = [
      "SELECT * FROM duckdb_databases()",
      "SELECT name, value FROM duckdb_settings() WHERE value LIKE '%/%'",
      "SELECT * FROM pragma_database_list",
      "SELECT current_setting('secret_directory')",
      "SELECT current_setting('allowed_paths')",
      "SELECT * FROM glob('*')",
      "SELECT * FROM read_text('public/current.json')",
      "SELECT getenv('HOME')",
      "SELECT * FROM histogram_values('duckdb_databases', replace(path, '/', '|'), technique := 'sample')",
      "SELECT * FROM histogram_values('pg_settings', name || '=' || setting, technique := 'sample')",
      "SELECT * FROM query_table('duckdb_settings')",
      "SELECT * FROM (SUMMARIZE SELECT * FROM duckdb_databases())",
      "SELECT * FROM (DESCRIBE duckdb_settings)",
      "SELECT * FROM duckdb_secrets()",
      "SELECT * FROM information_schema.schemata s, pg_settings p",
    ];
    for (const sql of refused) {
      const res = await shim.post({ sql });
      expect([res.status, res.body.detail?.error?.code], sql).toEqual([400, "query_rejected"]);
      expect(res.body.detail.error.message, sql).toMatch(
        /^The (function|view) \w+(\(\))? is not allowed: it /,
      );
      for (const path of host) expect(JSON.stringify(res.body), sql).not.toContain(path);
    }
    // kept: the public tables' own structure, which names catalogs (the release's aliases) and never a file
    const kept = [
      "SELECT * FROM (SHOW DATABASES)",
      "SELECT * FROM (SHOW ALL TABLES)",
      "SELECT * FROM information_schema.schemata",
      "SELECT * FROM information_schema.tables",
      "SELECT * FROM duckdb_tables()",
      "SELECT * FROM duckdb_views()",
      "SELECT current_database(), current_schema()",
    ];
    for (const sql of kept) {
      const res = await shim.post({ sql });
      expect([res.status, res.body.meta?.count > 0], sql).toEqual([200, true]);
      const text = JSON.stringify(res.body);
      // no file name either: the release's database and its parts are catalogs by alias (public, snapshots_…)
      for (const path of [...host, ".duckdb"]) expect(text, sql).not.toContain(path);
    }
    const tables = await fetch(`${shim.server.url}/api/v1/tables`);
    expect(tables.status).toBe(200);
    const projects = await shim.post({ sql: "SELECT count(*) > 0 AS any FROM projects" });
    expect([projects.status, projects.body.data.rows]).toEqual([200, [[true]]]);
  }, 300_000);
});
