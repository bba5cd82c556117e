// The source list: every folder is listed, in an order that respects `needs`, and each source's rows
// carry exactly the columns of its raw table's DDL.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDb, runSqlFile } from "../../core/db.ts";
import { RAW_DDL_DIR } from "../collect/load.ts";
import { github } from "./github/index.ts";
import { githubRest } from "./github/rest-source.ts";
import { detailsResponseSchema } from "./github/schemas.ts";
import { SOURCES } from "./index.ts";
import { pypi } from "./pypi/index.ts";
import { pypiProjectSchema } from "./pypi/schemas.ts";
import { pypistats } from "./pypistats/index.ts";

const HERE = import.meta.dirname;

describe("SOURCES", () => {
  it("lists every source folder exactly once", () => {
    const folders = readdirSync(HERE).filter((f) => statSync(path.join(HERE, f)).isDirectory());
    // GitHub's REST phase is a source of its own that lives in the github folder.
    const nested: Record<string, string> = { github_rest: "github" };
    const names = SOURCES.map((s) => s.name).filter((name) => !(name in nested));
    expect(names.sort()).toEqual(folders.sort());
    expect(SOURCES.map((s) => s.name)).toContain("github_rest");
  });

  it("puts every source after the sources it needs", () => {
    SOURCES.forEach((source, i) => {
      for (const need of source.needs) expect(SOURCES.slice(0, i).map((s) => s.name)).toContain(need);
    });
  });

  it("writes only tables that have a DDL file", () => {
    const ddl = readdirSync(RAW_DDL_DIR).map((f) => f.replace(/\.sql$/, ""));
    for (const source of SOURCES) for (const table of source.tables) expect(ddl).toContain(table);
  });
});

const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T00:00:00Z") };
const json = (p: string) => JSON.parse(readFileSync(path.resolve(HERE, p), "utf8"));

/** One row from each source's toRows, made from a recorded or hand-built payload. */
const SAMPLES: [string, string, () => Record<string, unknown> | undefined][] = [
  [
    "github",
    "raw_github_repos",
    () => github.toRows(detailsResponseSchema.parse(json("github/testdata/details.nodes-3.json")), meta)[0],
  ],
  [
    "github_rest",
    "raw_github_activity",
    () =>
      githubRest.toRows(
        {
          table: "raw_github_activity",
          activity: {
            node_id: "R_1",
            full_name: "o/r",
            contributors: 3,
            activity: { status: "empty" },
            issues: { median_hours: 5, sampled: 2 },
          },
        },
        meta,
      )[0],
  ],
  [
    "github_rest",
    "raw_github_stars",
    () =>
      githubRest.toRows(
        {
          table: "raw_github_stars",
          repo: { node_id: "R_1", full_name: "o/r" },
          history: { days: [{ day: "2026-02-28", stars: 12 }] },
        },
        meta,
      )[0],
  ],
  [
    "pypi",
    "raw_pypi_projects",
    () =>
      pypi.toRows(
        {
          project: pypiProjectSchema.parse(
            json("../../test/fixtures/real/pypi/project-json.requests.2023-01.json"),
          ),
          repo: "psf/requests",
        },
        meta,
      )[0],
  ],
  [
    "pypistats",
    "raw_pypi_downloads",
    () => pypistats.toRows({ data: { last_day: 1, last_week: 2, last_month: 3 }, package: "x" }, meta)[0],
  ],
];

describe("rows carry exactly the DDL's columns, in order", () => {
  it.each(SAMPLES)("%s → %s", async (name, table, row) => {
    const db = await openDb(":memory:");
    await runSqlFile(db, path.join(RAW_DDL_DIR, `${table}.sql`));
    const columns = (await db.all<{ column_name: string }>(`DESCRIBE ${table}`)).map((c) => c.column_name);
    db.close();
    expect(Object.keys(row() ?? {})).toEqual(columns);
    expect(SOURCES.find((s) => s.name === name)?.tables).toContain(table);
  });
});
