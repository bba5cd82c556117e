// SQL workflows: ready-made recipes over the public tables, one file each in data/workflows/<slug>.sql, served
// by GET /api/v1/workflows and runnable with `projintel sql --workflow <slug>`. Each file opens with a header
// of `-- key: value` lines (title, description, optional params; indented `--` lines continue a value).
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

const workflowSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "a kebab-case file name"),
    title: z.string().min(1),
    description: z.string().min(1),
    /** Placeholders the SQL holds as plain literals, with their defaults, for people editing a copy. */
    params: z.string().min(1).optional(),
    sql: z.string().min(1),
  })
  .strict();

export type Workflow = z.infer<typeof workflowSchema>;

/** Splits a workflow file into its header fields and the SQL after it, then checks the shape. */
export function parseWorkflow(slug: string, text: string): Workflow {
  const lines = text.split("\n");
  const fields: Record<string, string> = {};
  let key: string | undefined;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? "").trimEnd();
    if (!line.startsWith("--")) break;
    const field = /^--\s?([a-z_]+):\s*(.*)$/.exec(line);
    if (field?.[1]) {
      key = field[1];
      fields[key] = field[2] ?? "";
    } else if (key) {
      fields[key] = `${fields[key]} ${line.slice(2).trim()}`.trim();
    }
  }
  const parsed = workflowSchema.safeParse({ slug, ...fields, sql: lines.slice(i).join("\n").trim() });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      `Workflow ${slug}.sql is invalid: ${issue?.path.join(".") || "header"}: ${issue?.message ?? "invalid"}.`,
      { hint: "Start the file with `-- title: …` and `-- description: …` lines, then one SELECT." },
    );
  }
  return parsed.data;
}

/** Every workflow of the folder, sorted by slug. */
export async function loadWorkflows(dir: string = WORKFLOWS_DIR): Promise<Workflow[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (name) => parseWorkflow(name.slice(0, -4), await readFile(path.join(dir, name), "utf8"))),
  );
}
