// The query runner over a hand-made public database: SELECTs run, everything else is rejected by DuckDB's own
// parser and the sandbox, slow queries stop at the deadline, and big answers are cut at the caps.
import { readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, writePublicFixture } from "../../pipeline/public-testing.ts";
import {
  openQueryRunner,
  PUBLIC_ALIAS,
  QueryError,
  type QueryRunner,
  SANDBOX_LOCKDOWN,
  SANDBOX_SETTINGS,
} from "./index.ts";
import { nestedStructSql } from "./testing.ts";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let file: string;
let runner: QueryRunner;

beforeAll(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, "public.duckdb");
  await writePublicFixture(file);
  runner = await openQueryRunner({ file, threads: 2 });
});

afterAll(async () => {
  runner.close();
  await temp.remove();
});

async function rejection(sql: string, limits = {}, params: string[] = []): Promise<QueryError> {
  const error = await runner.run(sql, limits, params).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QueryError);
  return error as QueryError;
}

describe("query runner", () => {
  it("runs a SELECT and returns columns with their types and JSON rows", async () => {
    const result = await runner.run(
      "SELECT full_name, stars, quality_score / 100 AS q, first_seen, topics, count(*) OVER () AS n FROM projects WHERE stars > 100000 ORDER BY stars DESC",
    );
    expect(result.columns).toEqual([
      { name: "full_name", type: "VARCHAR" },
      { name: "stars", type: "INTEGER" },
      { name: "q", type: "DOUBLE" },
      { name: "first_seen", type: "DATE" },
      { name: "topics", type: "VARCHAR[]" },
      { name: "n", type: "BIGINT" },
    ]);
    expect(result.rows).toEqual([
      ["ollama/ollama", 150000, 0.92, "2026-08-01", null, 2],
      ["langchain-ai/langchain", 110000, 0.88, "2026-08-01", null, 2],
    ]);
    expect(result.row_count).toBe(2);
    expect(result.truncated).toBe(false);
    expect(result.elapsed_ms).toBeGreaterThanOrEqual(0);
  });

  it("runs WITH … SELECT, with a trailing semicolon and comments", async () => {
    const result = await runner.run(
      "-- domains\nWITH d AS (SELECT domain, sum(stars) AS stars FROM projects GROUP BY domain)\nSELECT * FROM d ORDER BY stars DESC LIMIT 2;",
    );
    expect(result.rows).toEqual([
      ["llm-inference", 150000],
      ["agents", 115000],
    ]);
    expect(result.columns[1]).toEqual({ name: "stars", type: "HUGEINT" });
  });

  it("rejects two statements, naming how many it found", async () => {
    const error = await rejection("SELECT 1; SELECT 2");
    expect(error.code).toBe("query_rejected");
    expect(error.message).toBe("Only one statement is allowed; the query holds 2.");
  });

  it("rejects empty text", async () => {
    expect((await rejection("  -- nothing\n /* here */ ;")).message).toBe("The query is empty.");
  });

  it.each([
    ["INSERT INTO labs SELECT * FROM labs", "INSERT"],
    ["CREATE TEMP TABLE t AS SELECT 1", "CREATE"],
    ["ATTACH '/tmp/other.duckdb' AS other", "ATTACH"],
    ["PRAGMA enable_profiling", "PRAGMA"],
    ["SET threads = 1", "SET"],
    ["INSTALL httpfs", "INSTALL"],
    ["LOAD httpfs", "LOAD"],
    ["DELETE FROM projects", "DELETE"],
    ["EXPLAIN SELECT 1", "EXPLAIN"],
    ["CALL pragma_version()", "CALL"],
    ["COPY projects TO '/tmp/projintel-leak.csv'", "COPY"],
  ])("rejects %s (%s)", async (sql, type) => {
    const error = await rejection(sql);
    expect(error.code).toBe("query_rejected");
    expect(error.message).toBe(`Only a SELECT statement is allowed, not ${type}.`);
  });

  it.each([
    ["SELECT * FROM read_csv('/etc/passwd')", "The function read_csv() is not allowed: it reads files."],
    ["SELECT * FROM read_text('/etc/passwd')", "The function read_text() is not allowed: it reads files."],
    ["SELECT * FROM glob('/*')", "The function glob() is not allowed: it lists files."],
    ["SELECT * FROM '/etc/passwd'", "Reading a file or URL is not allowed; query the public tables by name."],
    ["SELECT * FROM query('SELECT 1')", "The function query() is not allowed: it runs SQL given as text."],
    [
      "SELECT path FROM duckdb_databases()",
      "The function duckdb_databases() is not allowed: it shows the server's database files and settings.",
    ],
    [
      "SELECT * FROM duckdb_databases",
      "The view duckdb_databases is not allowed: it shows the server's database files and settings.",
    ],
  ])("refuses by DuckDB's parse tree: %s", async (sql, message) => {
    const error = await rejection(sql);
    expect([error.code, error.message]).toEqual(["query_rejected", message]);
  });

  it("binds positional parameters and checks their count", async () => {
    const result = await runner.run(
      "SELECT full_name FROM projects WHERE stars > ? AND full_name <> $2 ORDER BY stars DESC",
      {},
      [100_000, "ollama/ollama"],
    );
    expect(result.rows).toEqual([["langchain-ai/langchain"]]);
    const error = await rejection("SELECT ? AS a");
    expect(error.message).toBe("The query has 1 parameter(s) but 0 value(s) were given.");
  });

  it("hides the database's path in every value and message", async () => {
    const file = path.join(temp.dir, "public.duckdb");
    const value = await runner.run("SELECT ? AS p, ? || '/x' AS folder", {}, [file, temp.dir]);
    expect(value.rows).toEqual([["<server path>", "<server path>/x"]]);
    const error = await rejection("SELECT CAST(? AS INTEGER)", {}, [file]);
    expect(error.message).toBe("The query failed: Conversion Error: Could not convert string '…' to INT32");
    const dated = await rejection(`SELECT CAST('${temp.dir}/x' AS DATE)`);
    expect(dated.message).toBe(
      'The query failed: Conversion Error: invalid date field format: "…", expected format is (YYYY-MM-DD)',
    );
    expect(dated.message).not.toContain(temp.dir);
  });

  it("never echoes a literal or parameter of the query, keeping DuckDB's own quoted words", async () => {
    const literal = await rejection("SELECT 'needle-4417'::INTEGER");
    expect(literal.message).toBe("The query failed: Conversion Error: Could not convert string '…' to INT32");
    const param = await rejection("SELECT ?::INTEGER", {}, ["needle-4418"]);
    expect(param.message).not.toContain("needle-4418");
    const own = await rejection("SELECT repeat('x', 1.5)");
    expect(own.message).toContain("'repeat(STRING_LITERAL, DECIMAL(2,1))'");
  });

  it('names the public tables\' catalog "public", never the file', async () => {
    const result = await runner.run("SELECT current_database() AS db, count(*) AS n FROM duckdb_tables()");
    expect(result.rows).toEqual([["public", 9]]);
  });

  it("never echoes the SQL text in an error", async () => {
    const error = await rejection("SELECT nope FROM projects WHERE owner = 'secret-literal'");
    expect(error.message).toMatch(
      /^The query failed: Binder Error: Referenced column "nope" not found in FROM clause! Candidate bindings: /,
    );
    expect(error.message).not.toContain("secret-literal");
    const syntax = await rejection("SELEC 1 FROM projects WHERE owner = 'secret-literal'");
    expect(syntax.message).toBe('The query failed: Parser Error: syntax error at or near "SELEC"');
  });

  it("stops a slow query at the deadline", async () => {
    const started = performance.now();
    const error = await rejection(
      "SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range = -1",
      {
        timeoutMs: 300,
      },
    );
    expect(error.code).toBe("query_timeout");
    expect(error.message).toBe("The query ran past its 300 ms deadline and was stopped.");
    expect(performance.now() - started).toBeLessThan(3_000);
    // the runner still answers afterwards
    expect((await runner.run("SELECT 42 AS answer")).rows).toEqual([[42]]);
  });

  it("cuts the rows at the row cap", async () => {
    const result = await runner.run("SELECT range AS n FROM range(10000)", { maxRows: 3 });
    expect(result.rows).toEqual([[0], [1], [2]]);
    expect(result).toMatchObject({ row_count: 3, truncated: true });
    const exact = await runner.run("SELECT range AS n FROM range(3)", { maxRows: 3 });
    expect(exact).toMatchObject({ row_count: 3, truncated: false });
  });

  it("cuts the rows at the byte cap, the columns counted first", async () => {
    // the columns [{"name":"s","type":"VARCHAR"}] are 31 bytes; each row ["xxxxxxxxxx"] 14, plus one separator
    const result = await runner.run("SELECT repeat('x', 10) AS s FROM range(100)", { maxBytes: 80 });
    expect(result).toMatchObject({ row_count: 3, truncated: true });
  });

  it("counts the byte cap in UTF-8 bytes, not in UTF-16 code units", async () => {
    // 990,000 characters, 2,970,000 bytes: over the 1,000,000-byte cap though its length is under it
    const result = await runner.run("SELECT repeat('€', 990000) AS s");
    expect(result).toMatchObject({ row_count: 0, truncated: true });
    const fits = await runner.run("SELECT repeat('€', 300000) AS s");
    expect(fits).toMatchObject({ row_count: 1, truncated: false });
  });

  it("counts the byte cap as an MCP result sends it when asked: JSON and that JSON again as text (issue 35, item 8)", async () => {
    // a row of 499,000 backslashes: 998,004 bytes as JSON, which the REST answer carries; 2,994,010 as JSON and text
    const sql = "SELECT repeat('\\', 499000) AS s";
    expect(await runner.run(sql)).toMatchObject({ row_count: 1, truncated: false });
    expect(await runner.run(sql, { bytesAs: "json-and-text" })).toMatchObject({
      rows: [],
      row_count: 0,
      truncated: true,
    });
    // rows of 100,000 backslashes: 600,010 bytes each as JSON and text, so one fits a megabyte (four as JSON alone)
    const many = await runner.run("SELECT repeat('\\', 100000) AS s FROM range(10)", {
      bytesAs: "json-and-text",
    });
    expect(many).toMatchObject({ row_count: 1, truncated: true });
  });

  it("refuses a query whose column types alone are past the byte cap, even with no row", async () => {
    // a struct nested 8 times over a 5,000-character field name: a type of about 1.3 MB, zero rows
    const error = await rejection(nestedStructSql(8, 5_000));
    expect(error.code).toBe("query_rejected");
    expect(error.message).toMatch(
      /^The query's column names and types alone take [\d,]+ bytes, more than the 1,000,000 an answer may hold\.$/,
    );
  });

  it("opens a sandbox whose settings name no folder of the host: only the public file DuckDB allows itself (issue 35, item 9)", async () => {
    // what duckdb_settings() would show were the deny list passed: DuckDB derives secret_directory and the extension
    // folder from $HOME unless blanked; allowed_paths lists the attached file (and its WAL names), which no setting
    // removes, so the parse-tree check keeps it out of reach and the scrubber out of answers
    const instance = await DuckDBInstance.create(":memory:", { ...SANDBOX_SETTINGS });
    const connection = await instance.connect();
    try {
      await connection.run(`ATTACH '${file}' AS ${PUBLIC_ALIAS} (READ_ONLY)`);
      await connection.run(SANDBOX_LOCKDOWN);
      const reader = await connection.runAndReadAll(
        "SELECT name, value FROM duckdb_settings() WHERE value LIKE '%/%' AND name <> 'TimeZone' ORDER BY name",
      );
      const rows = reader.getRows().map(([name, value]) => [String(name), String(value)]);
      expect(rows.map(([name]) => name)).toEqual(["allowed_paths"]);
      expect(rows[0]?.[1]).toContain(file);
      const folders = await connection.runAndReadAll(
        "SELECT name FROM duckdb_settings() WHERE contains(value, $1) OR contains(value, $2) ORDER BY name",
        [os.homedir(), process.cwd()],
      );
      expect(folders.getRows()).toEqual([]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it("judges a catalog view by what it reads: pg_settings refused, information_schema.tables kept", async () => {
    for (const view of ["pg_settings", "pg_catalog.pg_settings", "PG_CATALOG.PG_SETTINGS"]) {
      const error = await rejection(`SELECT name, setting FROM ${view}`);
      expect([error.code, error.message]).toEqual([
        "query_rejected",
        `The view ${view.split(".").pop()} is not allowed: it shows the server's database files and settings (through function duckdb_settings()).`,
      ]);
    }
    // through a view of a view: pg_database reads duckdb_databases(), which shows the database files
    expect((await rejection("SELECT * FROM pg_catalog.pg_database")).message).toBe(
      "The view pg_database is not allowed: it shows the server's database files and settings (through function duckdb_databases()).",
    );
    const tables = await runner.run(
      "SELECT table_name FROM information_schema.tables WHERE table_catalog = 'public' ORDER BY 1 LIMIT 2",
    );
    expect(tables.rows).toEqual([["contributors"], ["labs"]]);
  });

  it("refuses the macros and table functions that read a table named by text, found from the catalog", async () => {
    for (const [sql, message] of [
      [
        "SELECT * FROM histogram_values('duckdb_databases', replace(path, '/', '|'), technique := 'sample')",
        "The function histogram_values() is not allowed: it reads a table named by text (through function query_table()).",
      ],
      [
        "SELECT * FROM histogram_values('pg_settings', name || '=' || setting, technique := 'sample')",
        "The function histogram_values() is not allowed: it reads a table named by text (through function query_table()).",
      ],
      [
        "SELECT * FROM histogram('projects', stars)",
        "The function histogram() is not allowed: it reads a table named by text (through function histogram_values(), then function query_table()).",
      ],
      [
        "SELECT * FROM query_table(['duckdb_databases'])",
        "The function query_table() is not allowed: it reads a table named by text.",
      ],
      [
        "SELECT * FROM duckdb_table_sample('projects')",
        "The function duckdb_table_sample() is not allowed: it shows the server's database files and settings.",
      ],
      [
        "SELECT * FROM sql_auto_complete('SELECT * FROM ''/')",
        "The function sql_auto_complete() is not allowed: it reads a table, file or SQL named by text.",
      ],
      [
        "SELECT * FROM duckdb_profiling_settings()",
        "The function duckdb_profiling_settings() is not allowed: it shows the server's database files and settings.",
      ],
      [
        "SELECT get_block_size('public') AS b",
        "The function get_block_size() is not allowed: it shows the server's database files and settings (through function pragma_database_size()).",
      ],
    ]) {
      const error = await rejection(sql as string);
      expect([sql, error.code, error.message]).toEqual([sql, "query_rejected", message]);
    }
    // macros and text-taking functions that read no table stay: a macro over the types, JSON given as text, a
    // public table's columns
    const kept = await runner.run(
      "SELECT format_type(23, -1) AS t, (SELECT count(*) FROM json_each('[1,2]')) AS j, (SELECT count(*) FROM pragma_table_info('labs')) > 0 AS c",
    );
    expect(kept.rows).toEqual([["float8", 2, true]]);
  });

  it("cannot read or change settings even through a function", async () => {
    const error = await rejection("SELECT current_setting('enable_external_access') AS ext");
    expect(error.message).toBe(
      "The function current_setting() is not allowed: it shows the server's settings.",
    );
  });

  it("stops a query past its memory limit instead of spilling to disk", async () => {
    const small = await openQueryRunner({
      file: path.join(temp.dir, "public.duckdb"),
      memoryLimit: "64MB",
      threads: 2,
    });
    try {
      const error = await small
        .run("SELECT count(DISTINCT range::VARCHAR || 'abcdefghij') FROM range(20000000)", {
          timeoutMs: 30_000,
        })
        .catch((e: unknown) => e as QueryError);
      expect(error).toBeInstanceOf(QueryError);
      expect((error as QueryError).message).toBe("The query needs more than the 64MB of memory it may use.");
    } finally {
      small.close();
    }
    expect((await readdir(temp.dir)).sort()).toEqual(["public.duckdb"]);
  });
});
