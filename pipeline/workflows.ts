// SQL workflows: ready-made recipes over the public tables, one file each in data/workflows/<slug>.sql, served
// by GET /api/v1/workflows and runnable with `projintel sql --workflow <slug> [--param name=value]`. Each file opens
// with a header of `-- key: value` lines (title, description, then one `-- param:` line per parameter; indented
// `--` lines continue a value). Parameter i is `$i` in the SQL, bound by the runner, never pasted into the text.
// A parameter whose values come from a column says so (`from table.column`): its default is then checked against
// the night's data wherever it is shown or used (withDefaultsInData), so a recipe run with its defaults has rows.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { AppError } from "../core/errors.ts";

export const WORKFLOWS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "data",
  "workflows",
);

/** A `-- param:` line: `name (default value): what it is`, or `name (default value, from table.column): …`. */
const PARAM_LINE = /^([a-z][a-z0-9_]*) \(default (.+?)(?:, from ([a-z_]+)\.([a-z_]+))?\): (.+)$/;

const paramSchema = z.object({
  name: z.string(),
  /** The value bound when the caller gives none. */
  default: z.string(),
  description: z.string(),
  /** The public table and column the values come from (the default is checked against them). */
  from: z.object({ table: z.string(), column: z.string() }).optional(),
});

export type WorkflowParam = z.infer<typeof paramSchema>;

const workflowSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "a kebab-case file name"),
    title: z.string().min(1),
    description: z.string().min(1),
    /** In the order of their placeholders: the first is $1 in the SQL. */
    params: z.array(paramSchema),
    sql: z.string().min(1),
  })
  .strict();

export type Workflow = z.infer<typeof workflowSchema>;

function invalid(slug: string, what: string): AppError {
  return new AppError(`Workflow ${slug}.sql is invalid: ${what}.`, {
    hint: "Start the file with `-- title: …` and `-- description: …` lines, one `-- param: name (default value): what it is` line per $n of the SQL, then one SELECT.",
  });
}

function parseParam(slug: string, text: string): WorkflowParam {
  const match = PARAM_LINE.exec(text);
  if (!match) throw invalid(slug, `param "${text}" is not \`name (default value): what it is\``);
  const [, name = "", value = "", table, column, description = ""] = match;
  return { name, default: value, description, ...(table && column ? { from: { table, column } } : {}) };
}

/** Splits a workflow file into its header fields and the SQL after it, then checks the shape. */
export function parseWorkflow(slug: string, text: string): Workflow {
  const lines = text.split("\n");
  const fields: Record<string, string> = {};
  const params: string[] = [];
  let key: string | undefined;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? "").trimEnd();
    if (!line.startsWith("--")) break;
    const field = /^--\s?([a-z_]+):\s*(.*)$/.exec(line);
    if (field?.[1]) {
      key = field[1];
      if (key === "param") params.push(field[2] ?? "");
      else fields[key] = field[2] ?? "";
    } else if (key === "param") {
      params.push(`${params.pop()} ${line.slice(2).trim()}`.trim());
    } else if (key) {
      fields[key] = `${fields[key]} ${line.slice(2).trim()}`.trim();
    }
  }
  const sql = lines.slice(i).join("\n").trim();
  const parsed = workflowSchema.safeParse({
    slug,
    ...fields,
    params: params.map((p) => parseParam(slug, p)),
    sql,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(slug, `${issue?.path.join(".") || "header"}: ${issue?.message ?? "invalid"}`);
  }
  const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const declared = parsed.data.params.length;
  if (used.size !== declared || [...used].some((n) => n < 1 || n > declared)) {
    throw invalid(
      slug,
      `its SQL uses ${
        [...used]
          .sort()
          .map((n) => `$${n}`)
          .join(", ") || "no $n"
      } but the header declares ${declared} param line(s)`,
    );
  }
  return parsed.data;
}

/**
 * The values to bind for a run of `workflow`: each parameter's given value, else its default, in $n order. A name
 * the workflow does not take is refused, naming those it does.
 */
export function workflowValues(workflow: Workflow, given: Record<string, string>): string[] {
  const names = workflow.params.map((p) => p.name);
  const unknown = Object.keys(given).find((name) => !names.includes(name));
  if (unknown !== undefined) {
    throw new AppError(`Workflow ${workflow.slug} has no parameter "${unknown}".`, {
      hint: names.length ? `It takes: ${names.join(", ")}.` : "It takes none; run it without --param.",
    });
  }
  return workflow.params.map((p) => given[p.name] ?? p.default);
}

/** The first column of a query's first row as text (undefined when there is no row or it is null). */
export type FirstValue = (sql: string, params: string[]) => Promise<string | undefined>;

/** How many of a column's values are tried, best first, for a default that gives no rows. */
const DEFAULT_CANDIDATES = 25;

/**
 * The workflow with each default that names a value of a column (`from table.column`) checked against the data the
 * recipe is shown with or run on: a default under which the recipe returns no row is replaced by the first of the
 * column's values, best first (by the most stars of their rows, or the most rows where the table has no stars),
 * under which it does, so a recipe run with the defaults it is shown with has rows.
 */
export async function withDefaultsInData(workflow: Workflow, firstValue: FirstValue): Promise<Workflow> {
  const values = workflow.params.map((p) => p.default);
  const inner = workflow.sql.trim().replace(/;$/, "");
  const hasRows = async () =>
    (await firstValue(`SELECT 1 FROM (${inner}) AS recipe LIMIT 1`, values)) !== undefined;
  for (const [i, param] of workflow.params.entries()) {
    if (!param.from || (await hasRows())) continue;
    const { table, column } = param.from;
    const stars = await firstValue(
      "SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND column_name = 'stars'",
      [table],
    );
    const order = stars ? "max(stars) DESC NULLS LAST" : "count(*) DESC";
    for (let rank = 0; rank < DEFAULT_CANDIDATES; rank++) {
      const candidate = await firstValue(
        `SELECT ${column} FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column} ORDER BY ${order}, ${column} LIMIT 1 OFFSET ${rank}`,
        [],
      );
      if (candidate === undefined) break;
      values[i] = candidate;
      if (await hasRows()) break;
      values[i] = param.default;
    }
  }
  return { ...workflow, params: workflow.params.map((p, i) => ({ ...p, default: values[i] ?? p.default })) };
}

/** Every workflow of the folder, sorted by slug. */
export async function loadWorkflows(dir: string = WORKFLOWS_DIR): Promise<Workflow[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (name) => parseWorkflow(name.slice(0, -4), await readFile(path.join(dir, name), "utf8"))),
  );
}
