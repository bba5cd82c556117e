// `projintel sql`: one read-only query over the public tables of the latest public database (built by
// `projintel score`), printed as an aligned table or as JSON; also lists the tables and runs the workflows.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { AppError, ConfigError } from "../core/errors.ts";
import type { QueryResult } from "../core/query/index.ts";
import type { Workflow } from "../pipeline/workflows.ts";
import { createContext, intFlag } from "./context.ts";
import { withStateDirFlag } from "./options.ts";

/** Limits of a query run by hand: more rows and time than the API allows, since the caller owns the machine. */
export const CLI_QUERY_LIMITS = { maxRows: 100, timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };
const MAX_CELL_CHARS = 48;
const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ");
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

/** The result as an aligned text table: numbers right-aligned, NULL spelled out, long text cut with "…". */
export function formatTable(result: Pick<QueryResult, "columns" | "rows" | "truncated">): string {
  const numeric = result.columns.map((c) => NUMERIC.test(c.type));
  const body = result.rows.map((row) => row.map(cell));
  const widths = result.columns.map((c, i) =>
    Math.max(c.name.length, ...body.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((text, i) => (numeric[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const count = `${result.rows.length} row${result.rows.length === 1 ? "" : "s"}`;
  return [
    line(result.columns.map((c) => c.name)),
    line(widths.map((w) => "-".repeat(w))),
    ...body.map(line),
    result.truncated ? `${count} (truncated)` : count,
    "",
  ].join("\n");
}

export function registerSql(program: Command): void {
  withStateDirFlag(program.command("sql"))
    .argument("[query]", 'one SELECT (or WITH … SELECT) over the public tables; "-" reads it from stdin')
    .description("Run one read-only SQL query over the public tables (projects, snapshots, releases, …).")
    .option(
      "--json",
      "print one JSON object {columns, rows, row_count, truncated, elapsed_ms}, as the API answers",
    )
    .option(
      "--max-rows <n>",
      `rows to print at most; more are cut and marked truncated (default ${CLI_QUERY_LIMITS.maxRows})`,
    )
    .option("--timeout-ms <ms>", `stop the query after this long (default ${CLI_QUERY_LIMITS.timeoutMs})`)
    .option("--tables", "list the public tables with their row counts")
    .option("--workflow <slug>", "run a ready-made recipe from data/workflows/ instead of a query")
    .option(
      "--param <name=value>",
      "a parameter of the --workflow recipe (repeatable); --workflows lists them with their defaults",
      collectParam,
      {},
    )
    .option("--workflows", "list the ready-made recipes and their parameters")
    .addHelpText(
      "after",
      `
The query runs on the latest public database (<state>/public/<run_date>.duckdb, built by \`projintel score\`),
opened read-only with file, network, extension and setting changes disabled. Exit code 2 for a query that is
not a single SELECT, does not compile or needs too much memory; 1 for a timeout or a missing public database.
Examples:
  projintel sql --tables
  projintel sql "SELECT full_name, stars, quality_score FROM projects ORDER BY stars DESC LIMIT 10"
  projintel sql --json --max-rows 1000 "SELECT domain, count(*) AS n FROM projects GROUP BY ALL ORDER BY n DESC"
  projintel sql --workflows
  projintel sql --workflow rising-in-domain --param domain=rag
  projintel sql --workflow star-history-30d --param repo=owner/name
  echo "FROM snapshots LIMIT 5" | projintel sql -`,
    )
    .action(async (query: string | undefined, flags) => {
      const { config } = createContext(flags);
      const { loadWorkflows, withDefaultsInData } = await import("../pipeline/workflows.ts");
      const [{ resolvePublicDb }, { readManifest, readPointer }, { createLocalStorage }] = await Promise.all([
        import("../core/public-db.ts"),
        import("../publish/layout.ts"),
        import("../core/storage.ts"),
      ]);
      // the night the API serves, so SQL and the API never disagree (a publish killed midway leaves both on it)
      const releases = createLocalStorage(statePaths(config).root);
      const served = await readPointer(releases);
      // the build the release names: a night published twice has two
      const manifest = served && (await readManifest(releases, served.release_id));
      const current = await resolvePublicDb(statePaths(config).root, manifest ?? served?.run_date);
      const { openQueryRunner, QueryError } = await import("../core/query/index.ts");
      const runner = current && (await openQueryRunner({ file: current.path }));
      // each recipe's defaults as the night's data holds them (as GET /api/v1/workflows shows them)
      const recipes = async () => {
        const workflows = await loadWorkflows();
        if (!runner) return workflows;
        const firstValue = async (sql: string, params: string[]) => {
          const value = (await runner.run(sql, {}, params)).rows[0]?.[0];
          return value === undefined || value === null ? undefined : String(value);
        };
        return Promise.all(workflows.map((w) => withDefaultsInData(w, firstValue)));
      };
      try {
        if (flags.workflows) {
          const workflows = await recipes();
          const width = Math.max(...workflows.map((w) => w.slug.length));
          for (const w of workflows) {
            const params = w.params.map((p) => ` --param ${p.name}=${p.default}`).join("");
            process.stdout.write(
              `${w.slug.padEnd(width)}  ${w.title}${params ? ` (${params.trim()})` : ""}\n`,
            );
          }
          return;
        }
        const { sql, params } = await resolveQuery(query, flags, recipes);
        const limits = {
          ...CLI_QUERY_LIMITS,
          ...(flags.maxRows ? { maxRows: intFlag("max-rows", flags.maxRows, 1, 1_000_000) } : {}),
          ...(flags.timeoutMs ? { timeoutMs: intFlag("timeout-ms", flags.timeoutMs, 1, 3_600_000) } : {}),
        };
        if (!runner) {
          // no path in the message: what to run is the same wherever the state folder is
          throw new AppError(
            "No public database in the state folder yet (--state-dir, PROJINTEL_STATE_DIR, default var/).",
            {
              hint: "Run `npm start`, `projintel nightly` or `projintel score` first; each builds the public tables.",
            },
          );
        }
        const result = await runner.run(sql, limits, params);
        process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : formatTable(result));
        // a recipe finding nothing for the values given: most often a name not tracked or mistyped (on stderr, so
        // --json output stays one object)
        if (result.rows.length === 0 && Object.keys(flags.param).length > 0)
          process.stderr.write(noRowsHint(flags.param));
      } catch (error) {
        // a query the caller must fix is bad usage (exit 2); a timeout stays a failure (exit 1)
        if (error instanceof QueryError && error.code === "query_rejected") {
          throw new ConfigError(error.message, error.hint);
        }
        throw error;
      } finally {
        runner?.close();
      }
    });
}

/** What to try when a workflow found no row for the --param values given. */
export function noRowsHint(given: Readonly<Record<string, string>>): string {
  const values = Object.entries(given)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  return `projintel: no rows for ${values}. A project must be tracked tonight and named as the projects table spells its full_name; look for it with: projintel sql "SELECT full_name FROM projects WHERE full_name ILIKE '%<name>%'"\n`;
}

/** Collects repeated `--param name=value` flags into one object. */
function collectParam(text: string, all: Record<string, string>): Record<string, string> {
  const at = text.indexOf("=");
  if (at < 1) throw new ConfigError(`--param must be name=value, got "${text}".`);
  return { ...all, [text.slice(0, at)]: text.slice(at + 1) };
}

async function resolveQuery(
  query: string | undefined,
  flags: { tables?: boolean; workflow?: string; param: Record<string, string> },
  loadWorkflows: () => Promise<Workflow[]>,
): Promise<{ sql: string; params: string[] }> {
  const given = [query !== undefined, Boolean(flags.tables), flags.workflow !== undefined].filter(
    Boolean,
  ).length;
  if (given !== 1) throw new ConfigError("Give exactly one of a query, --tables or --workflow <slug>.");
  if (flags.workflow === undefined && Object.keys(flags.param).length > 0) {
    throw new ConfigError("--param goes with --workflow <slug>.");
  }
  if (flags.tables) {
    // the public tables alone, by name: never the catalogs or files behind them
    const { PUBLIC_TABLES } = await import("../pipeline/public-db.ts");
    const sql = PUBLIC_TABLES.map((t) => `SELECT '${t}' AS "table", count(*) AS rows FROM ${t}`).join(
      " UNION ALL ",
    );
    return { sql, params: [] };
  }
  if (flags.workflow !== undefined) {
    const workflow = (await loadWorkflows()).find((w) => w.slug === flags.workflow);
    if (!workflow) {
      throw new ConfigError(
        `No workflow named "${flags.workflow}".`,
        "`projintel sql --workflows` lists them.",
      );
    }
    const { workflowValues } = await import("../pipeline/workflows.ts");
    try {
      return { sql: workflow.sql, params: workflowValues(workflow, flags.param) };
    } catch (error) {
      // a parameter the recipe does not take is bad usage (exit 2)
      throw new ConfigError(
        (error as Error).message,
        "`projintel sql --workflows` lists each one's parameters.",
      );
    }
  }
  return { sql: query === "-" ? readFileSync(0, "utf8") : (query ?? ""), params: [] };
}
