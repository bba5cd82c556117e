// Reads ds_status (pipeline/sql/ds_status.sql, built by the score stage) as the typed orientation object behind
// GET /api/v1/status: public tables and their rows, repositories, domains, source freshness, stale packages.
import { z } from "zod";
import type { Db } from "../core/db.ts";
import { AppError } from "../core/errors.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const statusSchema = z.object({
  run_date: day,
  repositories: z.number().int(),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int() })),
  domains: z.array(z.object({ domain: z.string().nullable(), repositories: z.number().int() })),
  sources: z.array(
    z.object({
      source: z.string(),
      latest_run_date: day.nullable(),
      rows: z.number().int(),
      fresh: z.boolean(),
      days_behind: z.number().int().nullable(),
    }),
  ),
  stale_packages: z.array(
    z.object({
      registry: z.string(),
      packages: z.number().int(),
      stale: z.number().int(),
      stale_share: z.number(),
    }),
  ),
});

export type Status = z.infer<typeof statusSchema>;

export async function readStatus(db: Db): Promise<Status> {
  // to_json turns the nested lists and dates into plain JSON in one step
  const rows = await db.all<{ json: string }>("SELECT to_json(s)::VARCHAR AS json FROM ds_status s");
  const [row] = rows;
  if (rows.length !== 1 || !row) {
    throw new AppError(`ds_status holds ${rows.length} rows instead of one.`, {
      hint: "Run `projintel score` to rebuild it.",
    });
  }
  const parsed = JSON.parse(row.json) as Record<string, unknown>;
  // lists of nothing come back as NULL from list() over no rows
  for (const key of ["tables", "domains", "sources", "stale_packages"]) parsed[key] ??= [];
  return statusSchema.parse(parsed);
}
