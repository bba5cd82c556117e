// `projintel sql` as a user runs it, over a public database built from hand-made public tables: the table
// printout, JSON, the table list, workflows, and the exit codes of a rejected query and a missing database.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../core/db.ts";
import { publishPublicDb } from "../pipeline/public-db.ts";
import { createPublicTables, FIXTURE_RUN_DATE, makeTempDir } from "../pipeline/public-testing.ts";
import { formatTable } from "./sql.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

let temp: Awaited<ReturnType<typeof makeTempDir>>;

function sql(args: string[], stateDir = temp.dir, input?: string) {
  const result = spawnSync(process.execPath, [CLI, "sql", "--state-dir", stateDir, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: 30_000,
    ...(input === undefined ? {} : { input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  temp = await makeTempDir();
  const warehouse = await openDb(":memory:");
  await createPublicTables(warehouse);
  await publishPublicDb({ db: warehouse, stateRoot: temp.dir, runDate: FIXTURE_RUN_DATE });
  warehouse.close();
});

afterAll(async () => {
  await temp.remove();
});

describe("formatTable", () => {
  it("aligns columns, right-aligns numbers, spells out NULL and cuts long text", () => {
    const text = formatTable({
      columns: [
        { name: "full_name", type: "VARCHAR" },
        { name: "stars", type: "INTEGER" },
        { name: "topics", type: "VARCHAR[]" },
      ],
      rows: [
        ["ollama/ollama", 150000, ["llm", "inference"]],
        ["a/b", null, `${"x".repeat(60)}`],
      ],
      truncated: true,
    });
    expect(text).toBe(
      [
        "full_name       stars  topics",
        "-------------  ------  ------------------------------------------------",
        'ollama/ollama  150000  ["llm","inference"]',
        `a/b              NULL  ${"x".repeat(47)}…`,
        "2 rows (truncated)",
        "",
      ].join("\n"),
    );
  });
});

describe("projintel sql", () => {
  it("prints a query's rows as a table", () => {
    const { code, stdout } = sql([
      "SELECT full_name, stars, lifecycle_since FROM projects WHERE owner = 'oldlab' OR owner = 'ollama' ORDER BY stars DESC",
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "full_name         stars  lifecycle_since",
        "---------------  ------  ---------------",
        "ollama/ollama    150000  NULL",
        "oldlab/vecstore    9000  2026-10-20",
        "2 rows",
        "",
      ].join("\n"),
    );
  });

  it("prints JSON with --json and cuts at --max-rows", () => {
    const { code, stdout } = sql([
      "--json",
      "--max-rows",
      "2",
      "SELECT node_id FROM projects ORDER BY node_id",
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect({ ...result, elapsed_ms: 0 }).toEqual({
      columns: [{ name: "node_id", type: "VARCHAR" }],
      rows: [["R_1"], ["R_2"]],
      row_count: 2,
      truncated: true,
      elapsed_ms: 0,
    });
  });

  it("lists the public tables with their row counts", () => {
    const { code, stdout } = sql(["--tables"]);
    expect(code).toBe(0);
    expect(stdout).toContain("table         rows\n");
    expect(stdout).toContain("projects         6\n");
    expect(stdout).toContain("snapshots        5\n");
    expect(stdout).toContain("9 rows\n");
  });

  it("lists and runs workflows, and reads a query from stdin", () => {
    expect(sql(["--workflows"]).stdout).toContain(
      "went-fading-this-month               Established projects",
    );
    expect(sql(["--workflow", "went-fading-this-month"]).stdout).toContain("oldlab/vecstore  2026-10-20");
    expect(sql(["-"], temp.dir, "SELECT 41 + 1 AS answer").stdout).toBe("answer\n------\n    42\n1 row\n");
  });

  it("runs a workflow for the value of --param, its default without, and refuses a name it does not take", () => {
    expect(sql(["--workflows"]).stdout).toContain(
      "star-history-30d                     30-day star history of one project (--param repo=ollama/ollama)",
    );
    const ollama = sql(["--workflow", "star-history-30d", "--json"]);
    const other = sql(["--workflow", "star-history-30d", "--param", "repo=acme/agentkit", "--json"]);
    const rows = (out: string) => (JSON.parse(out) as { row_count: number }).row_count;
    expect([rows(ollama.stdout), rows(other.stdout)]).toEqual([3, 1]);
    const wrong = sql(["--workflow", "star-history-30d", "--param", "full_name=acme/ragbox"]);
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      'projintel: Workflow star-history-30d has no parameter "full_name". `projintel sql --workflows` lists each one\'s parameters.\n',
    ]);
    expect(sql(["SELECT 1", "--param", "repo=x"]).stderr).toBe(
      "projintel: --param goes with --workflow <slug>.\n",
    );
  });

  it("says what to check when a workflow finds no rows for the name given", () => {
    const untracked = sql(["--workflow", "star-history-30d", "--param", "repo=OWNER/NAME"]);
    expect([untracked.code, untracked.stdout.trim().split("\n").at(-1)]).toEqual([0, "0 rows"]);
    expect(untracked.stderr).toBe(
      `projintel: no rows for repo=OWNER/NAME. A project must be tracked tonight and named as the projects table spells its full_name; look for it with: projintel sql "SELECT full_name FROM projects WHERE full_name ILIKE '%<name>%'"\n`,
    );
    // --json keeps stdout one object; a workflow with rows says nothing more
    expect(
      JSON.parse(sql(["--workflow", "star-history-30d", "--param", "repo=x/y", "--json"]).stdout),
    ).toMatchObject({
      row_count: 0,
    });
    expect(sql(["--workflow", "star-history-30d", "--param", "repo=acme/agentkit"]).stderr).toBe("");
  });

  it("rejects a statement that is not a SELECT with exit code 2, without echoing it", () => {
    const { code, stderr } = sql(["DROP TABLE projects"]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "projintel: Only a SELECT statement is allowed, not DROP. The public database is read-only: query it with one SELECT or WITH … SELECT.\n",
    );
  });

  it("stops with exit code 1 and says what to run when no public database was built", async () => {
    const empty = await makeTempDir();
    try {
      const { code, stderr } = sql(["SELECT 1"], empty.dir);
      expect(code).toBe(1);
      expect(stderr).toBe(
        "projintel: No public database in the state folder yet (--state-dir, PROJINTEL_STATE_DIR, default var/). Run `npm start`, `projintel nightly` or `projintel score` first; each builds the public tables.\n",
      );
    } finally {
      await empty.remove();
    }
  });

  it("asks for exactly one of a query, --tables or --workflow", () => {
    const { code, stderr } = sql(["--tables", "SELECT 1"]);
    expect(code).toBe(2);
    expect(stderr).toBe("projintel: Give exactly one of a query, --tables or --workflow <slug>.\n");
  });
});
