// Classifies repositories given as plain rows (JSON lines) with the same SQL the score stage runs
// (pipeline/sql/feat_classification.sql over a table named classify_input), and measures it against labels.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { openDb, runSqlFile, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLASSIFICATION_SQL = path.join(HERE, "sql", "feat_classification.sql");
/** The rules, read by the score stage and by `projintel classify`. */
export const TAXONOMY_FILE = path.join(HERE, "..", "data", "taxonomy.json");

const text = z.string().nullish();
const names = z.array(z.string()).nullish();

/** One input line: what GitHub and the registries say about a repository; labels are optional. */
export const classifyRowSchema = z.object({
  full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  description: text,
  topics: names,
  language: text,
  pypi_package: text,
  npm_package: text,
  dependencies: names,
  domain: text,
  also_ok: names,
  stack_layer: text,
});
export type ClassifyRow = z.infer<typeof classifyRowSchema>;

export interface Classification {
  full_name: string;
  domain: string;
  subcategory: string | null;
  stack_layer: string;
  rule: string;
}

/** Parses JSON lines (blank lines skipped); a bad line stops with its number and what is wrong. */
export function parseClassifyInput(input: string, source = "input"): ClassifyRow[] {
  const rows: ClassifyRow[] = [];
  const hint =
    'Each line must be a JSON object such as {"full_name": "owner/name", "description": "...", "topics": []}.';
  input.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new AppError(`${source} line ${index + 1}: invalid JSON (${(error as Error).message}).`, {
        hint,
      });
    }
    const parsed = classifyRowSchema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "line"}: ${i.message}`);
      throw new AppError(`${source} line ${index + 1}: ${problems.join("; ")}.`, { hint });
    }
    rows.push(parsed.data);
  });
  return rows;
}

/** Classifies the rows in an in-memory DuckDB, returning one classification per row in input order. */
export async function classifyRepos(
  rows: readonly ClassifyRow[],
  options: { taxonomyFile?: string } = {},
): Promise<Classification[]> {
  // DuckDB's type values load with the classification, not with every importer of TAXONOMY_FILE (scoring, `state push`)
  const [db, { DOUBLE, LIST, VARCHAR }] = await Promise.all([openDb(":memory:"), import("@duckdb/node-api")]);
  try {
    await db.run(
      "CREATE TABLE classify_input (node_id VARCHAR, full_name VARCHAR, owner VARCHAR, name VARCHAR, description VARCHAR, topics VARCHAR[], language VARCHAR, pypi_package VARCHAR, npm_package VARCHAR, dependencies VARCHAR[], ordinal DOUBLE)",
    );
    const appender = await db.connection.createAppender("classify_input");
    const str = (value: string | null | undefined) =>
      value === null || value === undefined ? appender.appendNull() : appender.appendVarchar(value);
    rows.forEach((row, i) => {
      const [owner, name] = row.full_name.split("/") as [string, string];
      for (const value of [String(i), row.full_name, owner, name, row.description]) str(value);
      appender.appendList(row.topics ?? [], LIST(VARCHAR));
      for (const value of [row.language, row.pypi_package, row.npm_package]) str(value);
      appender.appendList(
        (row.dependencies ?? []).map((d) => d.toLowerCase()),
        LIST(VARCHAR),
      );
      appender.appendValue(i, DOUBLE);
      appender.endRow();
    });
    appender.closeSync();
    await runSqlFile(db, CLASSIFICATION_SQL, {
      taxonomy_file: sqlLiteral(options.taxonomyFile ?? TAXONOMY_FILE),
    });
    return await db.all<Classification>(
      "SELECT i.full_name, c.domain, c.subcategory, c.stack_layer, c.rule FROM feat_classification c JOIN classify_input i USING (node_id) ORDER BY i.ordinal",
    );
  } finally {
    db.close();
  }
}

export interface EvalMiss extends Classification {
  expected_domain: string | null;
  also_ok: string[];
  expected_layer: string | null;
}

export interface EvalReport {
  rows: number;
  domain_correct: number;
  layer_correct: number;
  /** Shares of the labelled rows, 0..1; a domain counts as correct when it is the label or one of also_ok. */
  domain_accuracy: number;
  layer_accuracy: number;
  misses: EvalMiss[];
}

/** Compares classifications with the rows' domain / also_ok / stack_layer labels (rows without them are skipped). */
export function evaluateClassifications(
  rows: readonly ClassifyRow[],
  results: readonly Classification[],
): EvalReport {
  let labelled = 0;
  let domainCorrect = 0;
  let layerCorrect = 0;
  const misses: EvalMiss[] = [];
  rows.forEach((row, i) => {
    const result = results[i] as Classification;
    if (!row.domain && !row.stack_layer) return;
    labelled++;
    const domainOk =
      !row.domain || row.domain === result.domain || (row.also_ok ?? []).includes(result.domain);
    const layerOk = !row.stack_layer || row.stack_layer === result.stack_layer;
    if (domainOk) domainCorrect++;
    if (layerOk) layerCorrect++;
    if (!domainOk || !layerOk) {
      misses.push({
        ...result,
        expected_domain: row.domain ?? null,
        also_ok: row.also_ok ?? [],
        expected_layer: row.stack_layer ?? null,
      });
    }
  });
  const share = (n: number) => (labelled === 0 ? 0 : n / labelled);
  return {
    rows: labelled,
    domain_correct: domainCorrect,
    layer_correct: layerCorrect,
    domain_accuracy: share(domainCorrect),
    layer_accuracy: share(layerCorrect),
    misses,
  };
}
