// The pypistats connector: recent download counts (/api/packages/<name>/recent) for every PyPI project the
// pypi connector accepted in this run, into raw_pypi_downloads. Unknown packages (404) are skipped.
import { z } from "zod";
import { normalizeName } from "../pypi/names.ts";
import type { BatchItem, CollectContext, RowMeta, Source } from "../types.ts";
import { chunk, inOrder } from "../window.ts";

const TABLE = "raw_pypi_downloads";
export const PACKAGES_PER_BATCH = 100;

export const recentSchema = z.object({
  data: z.object({
    last_day: z.number().int().nonnegative(),
    last_week: z.number().int().nonnegative(),
    last_month: z.number().int().nonnegative(),
  }),
  package: z.string(),
  type: z.string().optional(),
});
export type Recent = z.infer<typeof recentSchema>;

export type PypiDownloadsRow = {
  run_date: string;
  package: string;
  last_day: number;
  last_week: number;
  last_month: number;
  fetched_at: string;
};

export function toRows(recent: Recent, meta: RowMeta): PypiDownloadsRow[] {
  return [
    {
      run_date: meta.runDate,
      package: normalizeName(recent.package),
      last_day: recent.data.last_day,
      last_week: recent.data.last_week,
      last_month: recent.data.last_month,
      fetched_at: meta.fetchedAt.toISOString(),
    },
  ];
}

export const downloadsBatchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;

/** The packages the pypi connector accepted in this run, from its batch files. */
async function acceptedPackages(ctx: CollectContext): Promise<string[]> {
  const packages = new Set<string>();
  for (const id of await ctx.batches.list("pypi", "raw_pypi_projects.")) {
    for (const row of await ctx.batches.read<{ package: string }>("pypi", id)) packages.add(row.package);
  }
  return [...packages].sort();
}

async function fetchRecent(ctx: CollectContext, name: string): Promise<PypiDownloadsRow[]> {
  const url = `${ctx.urls.pypiStats}/api/packages/${encodeURIComponent(name)}/recent`;
  const result = await ctx.http.request(url, { source: "pypistats", conditional: true });
  if (result.decision === "skip") {
    ctx.count("skipped");
    return [];
  }
  const parsed = recentSchema.safeParse(result.body);
  if (!parsed.success) {
    // Set aside with its URL and the schema issue; the package keeps yesterday's downloads.
    await ctx.quarantine(url, result.body, parsed.error);
    return [];
  }
  return toRows(parsed.data, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const packages = await acceptedPackages(ctx);
  const chunks = chunk(packages, PACKAGES_PER_BATCH);
  yield* inOrder(chunks, 1, async (chunk, k): Promise<BatchItem> => {
    const id = downloadsBatchId(k);
    if (await ctx.batches.has("pypistats", id)) return { id, resumed: true };
    const rows = await Promise.all(chunk.map((name) => fetchRecent(ctx, name)));
    return { id, table: TABLE, rows: rows.flat() };
  });
}

export const pypistats: Source<Recent> = {
  name: "pypistats",
  tables: [TABLE],
  needs: ["pypi"],
  collect,
  toRows,
};
