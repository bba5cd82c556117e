// The orientation documents of a release: status (ds_status with the release's ids, every domain and each source's
// state: fresh, behind or absent), the public tables with their rows and columns, and the SQL workflows with a query
// body each. Each is checked against its public schema before it is written, so a release never serves a document
// off its schema.
import type { Db } from "../core/db.ts";
import { PUBLIC_TABLES, type PublicTable } from "../pipeline/public-db.ts";
import { readStatus, type Status } from "../pipeline/status.ts";
import { type FirstValue, loadWorkflows, withDefaultsInData } from "../pipeline/workflows.ts";
import {
  DOMAINS,
  type PublicTablesDocument,
  publicTablesSchema,
  type StatusDocument,
  statusSchema,
  type WorkflowsDocument,
  workflowsSchema,
} from "../schemas/index.ts";
import { PUBLIC_TABLE_DOCS } from "./public-table-docs.ts";

interface ReleaseIds {
  runDate: string;
  releaseId: string;
}

/** Rows of every public table, in PUBLIC_TABLES order. */
async function tableRows(db: Db): Promise<{ name: PublicTable; rows: number }[]> {
  const out: { name: PublicTable; rows: number }[] = [];
  for (const name of PUBLIC_TABLES) {
    const [row] = await db.all<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM main.${name}`);
    out.push({ name, rows: Number(row?.n ?? 0) });
  }
  return out;
}

/**
 * A source's line of the status as the warehouse's facts give it (ds_status): absent when it holds no row from the
 * source up to the run date, with no count of rows (null, not an invented 0); else fresh or behind by its latest night.
 */
export function sourceFreshness(s: Status["sources"][number]): StatusDocument["sources"][number] {
  const { source, latest_run_date, rows, fresh, days_behind } = s;
  if (latest_run_date === null)
    return { source, state: "absent", latest_run_date, rows: null, fresh, days_behind };
  return { source, state: fresh ? "fresh" : "behind", latest_run_date, rows, fresh, days_behind };
}

export async function statusDocument(db: Db, ids: ReleaseIds): Promise<StatusDocument> {
  const status = await readStatus(db);
  const counts = new Map(status.domains.map((d) => [d.domain, d.repositories]));
  const domains = DOMAINS.map((domain) => ({ domain, repositories: counts.get(domain) ?? 0 })).sort(
    (a, b) => b.repositories - a.repositories || (a.domain < b.domain ? -1 : 1),
  );
  return statusSchema.parse({
    run_date: ids.runDate,
    release_id: ids.releaseId,
    repositories: status.repositories,
    tables: await tableRows(db),
    domains,
    sources: status.sources.map(sourceFreshness),
    stale_packages: status.stale_packages,
  });
}

export async function tablesDocument(db: Db, ids: ReleaseIds): Promise<PublicTablesDocument> {
  const tables = [];
  for (const { name, rows } of await tableRows(db)) {
    const columns = await db.all<{ name: string; type: string }>(
      "SELECT column_name AS name, data_type AS type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 ORDER BY column_index",
      [name],
    );
    const docs = PUBLIC_TABLE_DOCS[name];
    tables.push({
      name,
      description: docs.description,
      rows,
      columns: columns.map((c) => ({ ...c, description: docs.columns[c.name] ?? null })),
    });
  }
  return publicTablesSchema.parse({
    run_date: ids.runDate,
    how_to_query:
      'POST /api/v1/query with a JSON body {"sql": "SELECT …"}: one read-only SELECT (or WITH … SELECT) of DuckDB SQL over these tables. GET /api/v1/workflows has ready-made recipes.',
    tables,
  });
}

/** The recipes, each default checked against the night's data (the release shows only defaults that have rows). */
export async function workflowsDocument(db: Db): Promise<WorkflowsDocument> {
  const firstValue: FirstValue = async (sql, params) => {
    const [row] = await db.all(sql, params);
    const value = row && Object.values(row)[0];
    return value === undefined || value === null ? undefined : String(value);
  };
  const resolved = await Promise.all((await loadWorkflows()).map((w) => withDefaultsInData(w, firstValue)));
  const workflows = resolved.map((w) => ({
    name: w.slug,
    title: w.title,
    description: w.description,
    parameters: w.params.map(({ name, default: value, description }) => ({
      name,
      default: value,
      description,
    })),
    parameter_notes: w.params.length
      ? `Give params in this order: ${w.params.map((p, i) => `${p.name} ($${i + 1})`).join(", ")}.`
      : null,
    sql: w.sql,
    example_request: w.params.length
      ? { sql: w.sql, params: w.params.map((p) => p.default) }
      : { sql: w.sql },
  }));
  return workflowsSchema.parse({
    how_to_run:
      "Send a recipe's example_request as the JSON body of POST /api/v1/query; to run it for other values, change its params (the first is $1 in the SQL). `projintel sql --workflow <name> --param name=value` does the same.",
    workflows,
  });
}
